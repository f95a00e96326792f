/**
 * The sort code as three 2-digit boxes (owner-payment.md §2 Payment page, §3 Payment: "three
 * 2-digit parts joined with hyphens"); the focus moves on when a box is full. The value is the
 * parts joined with hyphens as typed, so an incomplete sort code meets the schema's rule.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext, useRef, useState } from 'react';

import { text } from '@/shared/copy';
import { CopyContext, describedBy, useFieldError } from '../field-errors';
import { GroupHead } from '../templates';
import '../form.css';

function split(value: unknown): string[] {
  const parts = typeof value === 'string' ? value.split('-') : [];
  return [parts[0] ?? '', parts[1] ?? '', parts[2] ?? ''];
}

export function SortCodeWidget({ id, value, onChange, onBlur, label, uiSchema, disabled, readonly }: WidgetProps) {
  const copy = useContext(CopyContext);
  const error = useFieldError(id);
  const help = typeof uiSchema?.['ui:help'] === 'string' ? (uiSchema['ui:help'] as string) : undefined;
  const [parts, setParts] = useState(() => split(value));
  const refs = [useRef<HTMLInputElement>(null), useRef<HTMLInputElement>(null), useRef<HTMLInputElement>(null)];

  function change(i: number, raw: string) {
    const digits = raw.replace(/[^0-9]/g, '').slice(0, 2);
    const next = parts.map((p, k) => (k === i ? digits : p));
    setParts(next);
    onChange(next.every((p) => p === '') ? undefined : next.join('-'));
    if (digits.length === 2 && i < 2) refs[i + 1].current?.focus();
  }

  return (
    <fieldset className="date-parts sort-code" id={id} aria-describedby={describedBy(id, Boolean(error), Boolean(help))}>
      <GroupHead id={id} label={label} help={help} />
      <div className="date-parts__boxes">
        {parts.map((part, i) => (
          <div className="date-parts__box date-parts__box--day" key={i}>
            <label htmlFor={`${id}-${i}`} className="visually-hidden">
              {text(copy, 'payment.sort_code.part', { n: String(i + 1) })}
            </label>
            <input
              ref={refs[i]}
              id={`${id}-${i}`}
              name={`${id}-${i}`}
              type="text"
              inputMode="numeric"
              autoComplete="off"
              maxLength={2}
              value={part}
              disabled={disabled || readonly}
              aria-invalid={error ? true : undefined}
              onChange={(e) => change(i, e.target.value)}
              onBlur={() => onBlur(id, value)}
            />
          </div>
        ))}
      </div>
    </fieldset>
  );
}
