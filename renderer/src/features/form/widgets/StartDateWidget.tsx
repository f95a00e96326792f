/**
 * The policy start date (journey.md §4 Policy start date): today, tomorrow or another date, each
 * offered only when the window the server derived allows it; another date opens a date control
 * bounded by the earliest and latest dates. The value is the date itself (YYYY-MM-DD).
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext, useState } from 'react';

import { text } from '@/shared/copy';
import type { ViewData } from '@/shared/types';
import { CopyContext, describedBy, useFieldError } from '../field-errors';
import { GroupHead } from '../templates';
import '../form.css';

type Option = 'today' | 'tomorrow' | 'other';

/** 2026-11-22 → 22/11/2026, as UK customers read dates. */
export function ukDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return y && m && d ? `${d}/${m}/${y}` : iso;
}

export function StartDateWidget({ id, value, onChange, label, registry }: WidgetProps) {
  const copy = useContext(CopyContext);
  const error = useFieldError(id);
  const window_ = registry.formContext?.startDate as ViewData['start_date'];
  const current = typeof value === 'string' ? value : '';
  const initial: Option | null =
    current === '' ? null : current === window_.today ? 'today' : current === window_.tomorrow ? 'tomorrow' : 'other';
  const [option, setOption] = useState<Option | null>(initial);
  const choose = (o: Option) => {
    setOption(o);
    if (o === 'today') onChange(window_.today);
    else if (o === 'tomorrow') onChange(window_.tomorrow);
    else if (current === window_.today || current === window_.tomorrow || current === '') {
      // Another date starts at the first day after tomorrow the window allows.
      const dayAfter = new Date(`${window_.tomorrow}T12:00:00Z`);
      dayAfter.setUTCDate(dayAfter.getUTCDate() + 1);
      const first = dayAfter.toISOString().slice(0, 10);
      onChange(first < window_.earliest ? window_.earliest : first);
    }
  };
  return (
    <fieldset className="choice" id={id} aria-describedby={describedBy(id, Boolean(error), true)}>
      <GroupHead
        id={id}
        label={label}
        help={text(copy, 'start_date.range', { earliest: ukDate(window_.earliest), latest: ukDate(window_.latest) })}
      />
      <div className="choice__options">
        {window_.options.map((o) => (
          <div className="choice__option" key={o}>
            <input
              type="radio"
              id={`${id}-${o}`}
              name={id}
              value={o}
              checked={option === o}
              aria-invalid={error ? true : undefined}
              onChange={() => choose(o)}
            />
            <label htmlFor={`${id}-${o}`}>
              {text(copy, `start_date.${o}`)}
              {o !== 'other' && <span className="choice__detail"> ({ukDate(o === 'today' ? window_.today : window_.tomorrow)})</span>}
            </label>
          </div>
        ))}
      </div>
      {option === 'other' && (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-date`}>
            {text(copy, 'start_date.date_label')}
          </label>
          <input
            id={`${id}-date`}
            type="date"
            className="text-input date-input"
            min={window_.earliest}
            max={window_.latest}
            value={current}
            aria-invalid={error ? true : undefined}
            onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
          />
        </div>
      )}
    </fieldset>
  );
}
