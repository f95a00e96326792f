/** A text box that says when it is invalid and what describes it. */
import type { WidgetProps } from '@rjsf/utils';

import { describedBy, useFieldError } from '../field-errors';

export function TextWidget({ id, value, onChange, onBlur, onFocus, options, uiSchema, disabled, readonly }: WidgetProps) {
  const error = useFieldError(id);
  const hasHelp = typeof uiSchema?.['ui:help'] === 'string';
  return (
    <input
      id={id}
      name={id}
      type="text"
      className="text-input"
      autoComplete={typeof options.autocomplete === 'string' ? options.autocomplete : undefined}
      value={typeof value === 'string' ? value : ''}
      disabled={disabled || readonly}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(id, Boolean(error), hasHelp)}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}

/** Keeps a value in the form without drawing anything. */
export function HiddenWidget() {
  return null;
}
