/**
 * The card number and expiry boxes (owner-payment.md §2 Payment page card form, §5 Payment): the
 * number shown in groups of four as it is typed ("16 digits in groups of four"), or, for an
 * American Express card (34 or 37, which the accepted list names), 15 digits as 4-6-5; the expiry as
 * MM/YY with the slash put in. What the boxes hold is what the card question set checks; they
 * only tidy the typing. Neither box is ever sent to pawpath: the payment page sends the card to
 * the payment provider.
 */
import type { WidgetProps } from '@rjsf/utils';

import { describedBy, useFieldError } from '../field-errors';
import '../form.css';

/** An American Express number: 34 or 37 at the start, 15 digits, a 4-digit security code. */
export function isAmex(digits: string): boolean {
  return /^3[47]/.test(digits);
}

/**
 * "4111111111111111" → "4111 1111 1111 1111" (at most 16 digits);
 * "378282246310005" → "3782 822463 10005" (American Express: at most 15, as 4-6-5).
 */
export function groupCardNumber(raw: string): string {
  const all = raw.replace(/[^0-9]/g, '');
  if (isAmex(all)) {
    const digits = all.slice(0, 15);
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10)].filter(Boolean).join(' ');
  }
  const digits = all.slice(0, 16);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "0429" or "04/29" → "04/29"; a lone month is left for the year to follow. */
export function formatExpiry(raw: string, previous: string): string {
  const digits = raw.replace(/[^0-9]/g, '').slice(0, 4);
  // Deleting the slash deletes the month's last digit too, so backspace works naturally.
  if (raw.length < previous.length && previous.endsWith('/') && !raw.includes('/')) return digits.slice(0, 1);
  if (digits.length < 2) return digits;
  if (digits.length === 2) return raw.length > previous.length ? `${digits}/` : digits;
  return `${digits.slice(0, 2)}/${digits.slice(2)}`;
}

function CardBox({
  id,
  value,
  onChange,
  onBlur,
  onFocus,
  uiSchema,
  disabled,
  readonly,
  format,
  autoComplete,
  maxLength,
}: WidgetProps & { format: (raw: string, previous: string) => string; autoComplete: string; maxLength: number }) {
  const error = useFieldError(id);
  const hasHelp = typeof uiSchema?.['ui:help'] === 'string';
  const current = typeof value === 'string' ? value : '';
  return (
    <input
      id={id}
      name={id}
      type="text"
      className="text-input text-input--card"
      inputMode="numeric"
      autoComplete={autoComplete}
      maxLength={maxLength}
      value={current}
      disabled={disabled || readonly}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(id, Boolean(error), hasHelp)}
      onChange={(e) => {
        const next = format(e.target.value, current);
        onChange(next === '' ? undefined : next);
      }}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}

export function CardNumberWidget(props: WidgetProps) {
  return <CardBox {...props} format={(raw) => groupCardNumber(raw)} autoComplete="cc-number" maxLength={19} />;
}

export function CardExpiryWidget(props: WidgetProps) {
  return <CardBox {...props} format={formatExpiry} autoComplete="cc-exp" maxLength={5} />;
}
