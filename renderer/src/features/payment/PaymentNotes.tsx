/** What the payment pages say beside their actions, and a day of the month as words. */
import { text } from '@/shared/copy';

/** Beside Confirm payment: nothing is taken yet; the next page is a check. */
export function NothingTakenYet({ copy }: { copy: Record<string, string> }) {
  return (
    <p className="hint payment__next" id="payment-next">
      {text(copy, 'payment.confirm.next')}
    </p>
  );
}

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
export function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${{ 1: 'st', 2: 'nd', 3: 'rd' }[day % 10] ?? 'th'}`;
}
