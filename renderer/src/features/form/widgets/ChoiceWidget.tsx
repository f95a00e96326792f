/** Radios in a fieldset with a legend: species, sex, and yes/no questions. */
import type { WidgetProps } from '@rjsf/utils';

import { describedBy, useFieldError } from '../field-errors';
import { GroupHead } from '../templates';

export function ChoiceWidget({ id, value, onChange, onBlur, onFocus, options, label, uiSchema, disabled, readonly }: WidgetProps) {
  const error = useFieldError(id);
  const help = typeof uiSchema?.['ui:help'] === 'string' ? (uiSchema['ui:help'] as string) : undefined;
  const inline = (options.enumOptions ?? []).length <= 3;
  return (
    <fieldset className="choice" id={id} aria-describedby={describedBy(id, Boolean(error), Boolean(help))}>
      <GroupHead id={id} label={label} help={help} />
      <div className={`choice__options${inline ? ' choice__options--inline' : ''}`}>
        {(options.enumOptions ?? []).map((option, i) => (
          <div className="choice__option" key={String(option.value)}>
            <input
              type="radio"
              id={`${id}-${i}`}
              name={id}
              value={String(option.value)}
              checked={value === option.value}
              disabled={disabled || readonly}
              aria-invalid={error ? true : undefined}
              onChange={() => onChange(option.value)}
              onBlur={() => onBlur(id, value)}
              onFocus={() => onFocus(id, value)}
            />
            <label htmlFor={`${id}-${i}`}>{option.label}</label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
