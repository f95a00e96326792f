/**
 * An amount with the brand's currency symbol (journey.md §5 pet_cost): before the number in
 * English ("£"), after it in French ("€"). The symbol is shown, never sent; "I didn't pay
 * anything" sets the amount to 0. What the customer types stays in the box as typed ("£1,200");
 * the answer is the plain number (plainAmount, as the server reads it).
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext, useEffect, useState } from 'react';

import { text } from '@/shared/copy';
import { plainAmount, useMoney } from '@/shared/money';
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
  const answer = typeof value === 'string' ? value : '';
  const [typed, setTyped] = useState(answer);
  // An answer set from elsewhere ("I didn't pay anything", a saved quote) is what the box shows.
  useEffect(() => {
    setTyped((shown) => (plainAmount(shown, money.currency) === answer ? shown : answer));
  }, [answer, money.currency]);
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
          value={typed}
          disabled={disabled || readonly || nothing}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, Boolean(error), hasHelp)}
          onChange={(e) => {
            setTyped(e.target.value);
            const v = plainAmount(e.target.value, money.currency).trim();
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
