/**
 * A text box that says when it is invalid and what describes it. UI hints: `inputType` (email,
 * tel), `inputMode` (numeric), `autocomplete`, and `trim` / `lowercase` / `phone`, applied as the customer leaves the
 * box, as the server does before its rules run (owner-payment.md §5: email trimmed and lower-cased;
 * a phone number as its digits).
 */
import type { WidgetProps } from '@rjsf/utils';

import { phoneDigits } from '../phone';

import { describedBy, useFieldError } from '../field-errors';

export function TextWidget({ id, value, onChange, onBlur, onFocus, options, uiSchema, disabled, readonly }: WidgetProps) {
  const error = useFieldError(id);
  const hasHelp = typeof uiSchema?.['ui:help'] === 'string';
  return (
    <input
      id={id}
      name={id}
      type={options.inputType === 'email' || options.inputType === 'tel' ? options.inputType : 'text'}
      className="text-input"
      autoComplete={typeof options.autocomplete === 'string' ? options.autocomplete : undefined}
      inputMode={options.inputMode === 'numeric' ? 'numeric' : undefined}
      value={typeof value === 'string' ? value : ''}
      disabled={disabled || readonly}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(id, Boolean(error), hasHelp)}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      onBlur={() => {
        if (typeof value === 'string') {
          let tidy = options.trim === true ? value.trim() : value;
          if (options.lowercase === true) tidy = tidy.toLowerCase();
          if (options.phone === true) tidy = phoneDigits(tidy) ?? tidy;
          if (tidy !== value) onChange(tidy === '' ? undefined : tidy);
        }
        onBlur(id, value);
      }}
      onFocus={() => onFocus(id, value)}
    />
  );
}

/** Keeps a value in the form without drawing anything. */
export function HiddenWidget() {
  return null;
}
