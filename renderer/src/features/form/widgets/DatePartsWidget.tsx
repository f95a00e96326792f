/**
 * Date of birth as day, month and year boxes (journey.md §2, owner-payment.md §5 Forms
 * generally): day and month take 2 characters, year 4, and the focus moves on when a box is
 * full. The value is the combined date year-month-day, exactly as typed, so an incomplete date
 * meets the schema's format rule.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext, useRef, useState } from 'react';

import { text } from '@/shared/copy';
import { CopyContext, describedBy, useFieldError } from '../field-errors';
import { GroupHead } from '../templates';
import '../form.css';

type Part = 'day' | 'month' | 'year';
const LENGTH: Record<Part, number> = { day: 2, month: 2, year: 4 };
const ORDER: Part[] = ['day', 'month', 'year'];

function split(value: unknown): Record<Part, string> {
  const [year = '', month = '', day = ''] = typeof value === 'string' ? value.split('-') : [];
  return { day, month, year };
}

export function DatePartsWidget({ id, value, onChange, onBlur, label, uiSchema, disabled, readonly }: WidgetProps) {
  const copy = useContext(CopyContext);
  const error = useFieldError(id);
  const help = typeof uiSchema?.['ui:help'] === 'string' ? (uiSchema['ui:help'] as string) : undefined;
  const [parts, setParts] = useState(() => split(value));
  const refs = { day: useRef<HTMLInputElement>(null), month: useRef<HTMLInputElement>(null), year: useRef<HTMLInputElement>(null) };

  function change(part: Part, raw: string) {
    const digits = raw.replace(/[^0-9]/g, '').slice(0, LENGTH[part]);
    const next = { ...parts, [part]: digits };
    setParts(next);
    const empty = !next.day && !next.month && !next.year;
    onChange(empty ? undefined : `${next.year}-${next.month}-${next.day}`);
    const following = ORDER[ORDER.indexOf(part) + 1];
    if (digits.length === LENGTH[part] && following) refs[following].current?.focus();
  }

  return (
    <fieldset className="date-parts" id={id} aria-describedby={describedBy(id, Boolean(error), Boolean(help))}>
      <GroupHead id={id} label={label} help={help} />
      <div className="date-parts__boxes">
        {ORDER.map((part) => (
          <div className={`date-parts__box date-parts__box--${part}`} key={part}>
            <label htmlFor={`${id}-${part}`}>{text(copy, `pet.dob.${part}`)}</label>
            <input
              ref={refs[part]}
              id={`${id}-${part}`}
              name={`${id}-${part}`}
              type="text"
              inputMode="numeric"
              autoComplete="off"
              maxLength={LENGTH[part]}
              value={parts[part]}
              disabled={disabled || readonly}
              aria-invalid={error ? true : undefined}
              onChange={(e) => change(part, e.target.value)}
              onBlur={() => onBlur(id, value)}
            />
          </div>
        ))}
      </div>
    </fieldset>
  );
}
