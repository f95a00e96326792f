/**
 * A multi-line text box with a remaining-characters counter (owner-payment.md §5 Vet and
 * pre-existing conditions: up to 1000 characters with a counter). The counter is announced
 * politely, not on every key press: screen readers hear it when typing pauses.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext } from 'react';

import { text } from '@/shared/copy';
import { CopyContext, describedBy, useFieldError } from '../field-errors';
import '../form.css';

export function TextareaWidget({ id, value, onChange, onBlur, onFocus, options, uiSchema, disabled, readonly }: WidgetProps) {
  const copy = useContext(CopyContext);
  const error = useFieldError(id);
  const hasHelp = typeof uiSchema?.['ui:help'] === 'string';
  const max = typeof options.maxLength === 'number' ? options.maxLength : undefined;
  const counterKey = typeof options.counter === 'string' ? options.counter : undefined;
  const current = typeof value === 'string' ? value : '';
  const described = [describedBy(id, Boolean(error), hasHelp), counterKey ? `${id}__counter` : ''].filter(Boolean).join(' ');
  return (
    <>
      <textarea
        id={id}
        name={id}
        className="text-input textarea"
        rows={5}
        value={current}
        disabled={disabled || readonly}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
      />
      {counterKey && max !== undefined && (
        <p className="field__counter" id={`${id}__counter`} aria-live="polite">
          {text(copy, counterKey, { count: String(Math.max(0, max - current.length)) })}
        </p>
      )}
    </>
  );
}
