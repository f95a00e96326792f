/** A tick box that confirms a statement: the box first, then its words, then any error. */
import type { WidgetProps } from '@rjsf/utils';
import { useContext } from 'react';

import { text } from '@/shared/copy';
import { CopyContext, describedBy, useFieldError } from '../field-errors';

export function ConfirmTickWidget({ id, value, onChange, onBlur, label, disabled, readonly }: WidgetProps) {
  const copy = useContext(CopyContext);
  const error = useFieldError(id);
  return (
    <div className="confirm-tick">
      {error && (
        <p className="field__error" id={`${id}__error`}>
          <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
          {error}
        </p>
      )}
      <div className="checkbox">
        <input
          type="checkbox"
          id={id}
          name={id}
          checked={value === true}
          disabled={disabled || readonly}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, Boolean(error), false)}
          onChange={(e) => onChange(e.target.checked ? true : undefined)}
          onBlur={() => onBlur(id, value)}
        />
        <label htmlFor={id}>{label}</label>
      </div>
    </div>
  );
}
