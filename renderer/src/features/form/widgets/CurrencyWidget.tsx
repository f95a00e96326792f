/**
 * An amount with the brand's currency symbol (journey.md §5 pet_cost): before the number in
 * English ("£"), after it in French ("€"). The symbol is shown, never sent; "I didn't pay
 * anything" sets the amount to 0.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext } from 'react';

import { text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import { CopyContext, describedBy, useFieldError } from '../field-errors';
import '../form.css';

export function CurrencyWidget({ id, value, onChange, onBlur, onFocus, options, uiSchema, disabled, readonly }: WidgetProps) {
  const copy = useContext(CopyContext);
  const money = useMoney();
  const symbol = (
    <span className={money.symbolAfter ? 'currency__affix currency__affix--after' : 'currency__affix'} aria-hidden="true">
      {money.symbol}
    </span>
  );
  const error = useFieldError(id);
  const hasHelp = typeof uiSchema?.['ui:help'] === 'string';
  const nothing = value === '0';
  const nothingKey = typeof options.nothingLabel === 'string' ? options.nothingLabel : undefined;
  return (
    <div className="currency">
      <div className="currency__input">
        {!money.symbolAfter && symbol}
        <input
          id={id}
          name={id}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          value={typeof value === 'string' ? value : ''}
          disabled={disabled || readonly || nothing}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, Boolean(error), hasHelp)}
          onChange={(e) => {
            // A typed symbol is dropped: the server takes the number (journey.md §5).
            const v = e.target.value.replace(/^\s*[£€]\s*|\s*€\s*$/g, '').trim();
            onChange(v === '' ? undefined : v);
          }}
          onBlur={() => onBlur(id, value)}
          onFocus={() => onFocus(id, value)}
        />
        {money.symbolAfter && symbol}
      </div>
      {nothingKey && (
        <div className="checkbox">
          <input
            type="checkbox"
            id={`${id}-nothing`}
            checked={nothing}
            disabled={disabled || readonly}
            onChange={(e) => onChange(e.target.checked ? '0' : undefined)}
          />
          <label htmlFor={`${id}-nothing`}>{text(copy, nothingKey)}</label>
        </div>
      )}
    </div>
  );
}
