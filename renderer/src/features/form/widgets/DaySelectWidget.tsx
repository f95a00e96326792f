/** The preferred collection day, 1 to 28 (owner-payment.md §3 Payment: payment_day). */
import type { WidgetProps } from '@rjsf/utils';
import { useContext } from 'react';

import { text } from '@/shared/copy';
import { CopyContext, describedBy, useFieldError } from '../field-errors';

export function DaySelectWidget({ id, value, onChange, onBlur, schema, uiSchema, disabled, readonly }: WidgetProps) {
  const copy = useContext(CopyContext);
  const error = useFieldError(id);
  const hasHelp = typeof uiSchema?.['ui:help'] === 'string';
  const min = typeof schema.minimum === 'number' ? schema.minimum : 1;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 28;
  const days = Array.from({ length: max - min + 1 }, (_, i) => min + i);
  return (
    <select
      id={id}
      name={id}
      className="select"
      value={typeof value === 'number' ? String(value) : ''}
      disabled={disabled || readonly}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(id, Boolean(error), hasHelp)}
      onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      onBlur={() => onBlur(id, value)}
    >
      <option value="">{text(copy, 'payment.day.placeholder')}</option>
      {days.map((d) => (
        <option key={d} value={d}>
          {d}
        </option>
      ))}
    </select>
  );
}
