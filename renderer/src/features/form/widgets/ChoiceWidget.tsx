/**
 * Radios in a fieldset with a legend: species, sex, and yes/no questions. An answer the schema
 * refuses (`not: {const}` with its `x-errors` message, journey.md §4 blocking answers) shows its
 * message as soon as it is chosen when the UI hints mark the question `refusal`; an answer with
 * a `warnings` entry shows that notice without blocking.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext } from 'react';

import { text } from '@/shared/copy';
import { CopyContext, describedBy, useFieldError } from '../field-errors';
import { GroupHead } from '../templates';

/** The copy key of the message when `value` is an answer the schema refuses, if it is one. */
export function refusalOf(schema: Record<string, unknown>, value: unknown): string | null {
  const not = schema.not as { const?: unknown } | undefined;
  const key = (schema['x-errors'] as Record<string, unknown> | undefined)?.not;
  return not && 'const' in not && not.const === value && typeof key === 'string' ? key : null;
}

export function ChoiceWidget(props: WidgetProps) {
  const copy = useContext(CopyContext);
  const { id, value, options, schema } = props;
  const refusal = options.refusal === true ? refusalOf(schema as Record<string, unknown>, value) : null;
  const warnings = (options.warnings ?? {}) as Record<string, string>;
  const warning = typeof value === 'string' ? warnings[value] : undefined;
  return (
    <>
      <Choices {...props} />
      {refusal && (
        <div className="panel panel--stop" role="alert" id={`${id}__refusal`}>
          <p>{text(copy, refusal)}</p>
        </div>
      )}
      {warning && (
        <div className="panel panel--info" role="status">
          <p>{text(copy, warning)}</p>
        </div>
      )}
    </>
  );
}

function Choices({ id, value, onChange, onBlur, onFocus, options, label, uiSchema, disabled, readonly }: WidgetProps) {
  const error = useFieldError(id);
  const help = typeof uiSchema?.['ui:help'] === 'string' ? (uiSchema['ui:help'] as string) : undefined;
  // A few options, or several short ones (titles), sit in a row.
  const choices = options.enumOptions ?? [];
  const inline = choices.length <= 3 || choices.every((o) => String(o.label).length <= 5);
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
