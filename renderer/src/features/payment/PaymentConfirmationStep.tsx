/**
 * The bank details panel (owner-payment.md §2 Bank details panel): account name, account
 * number, sort code as 2-2-2 with hyphens, cover start date, print, and an edit link back to
 * /payment; the Direct Debit instructions follow. The account number is shown in full here and
 * nowhere else.
 */
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import { collectionText } from '@/features/payment/PaymentStep';
import { text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { FieldMessage, ViewData } from '@/shared/types';
import './payment.css';

export function PaymentConfirmationStep({
  view,
  copy,
  busy,
  serverErrors = [],
  onOpen,
  onBuy,
}: {
  view: ViewData;
  copy: Record<string, string>;
  busy: boolean;
  /** Why buying stopped, as the server says it (a referral asks the customer to call). */
  serverErrors?: readonly FieldMessage[];
  onOpen: (path: string) => void;
  onBuy: () => void;
}) {
  const { price } = useMoney();
  const bank = view.bank_details;
  const base = view.step.path.replace(/\/payment-confirmation$/, '');
  if (!bank) return null;
  return (
    <div className="payment-confirmation">
      {serverErrors.length > 0 && (
        <div className="panel panel--stop" role="alert">
          {serverErrors.map((e) => (
            <p key={e.field}>{e.message}</p>
          ))}
        </div>
      )}
      <section className="card" aria-labelledby="bank-heading">
        <h2 id="bank-heading" className="pet__heading">
          {text(copy, 'payment_confirmation.heading')}
        </h2>
        <dl className="summary">
          <div className="summary__row">
            <dt>{text(copy, 'payment_confirmation.account_name')}</dt>
            <dd>{bank.account_name}</dd>
          </div>
          <div className="summary__row">
            <dt>{text(copy, 'payment_confirmation.account_number')}</dt>
            <dd>{bank.account_number}</dd>
          </div>
          <div className="summary__row">
            <dt>{text(copy, 'payment_confirmation.sort_code')}</dt>
            <dd>{bank.sort_code}</dd>
          </div>
          <div className="summary__row">
            <dt>{text(copy, 'payment_confirmation.cover_start')}</dt>
            <dd>{ukDate(bank.cover_start)}</dd>
          </div>
          {bank.bank_name && (
            <div className="summary__row">
              <dt>{text(copy, 'payment_confirmation.bank_name')}</dt>
              <dd>{bank.bank_name}</dd>
            </div>
          )}
          {bank.bank_address && (
            <div className="summary__row">
              <dt>{text(copy, 'payment_confirmation.bank_address')}</dt>
              <dd>{bank.bank_address}</dd>
            </div>
          )}
        </dl>
        <div className="review-pet__actions">
          <button type="button" className="button button--secondary" onClick={() => window.print()}>
            {text(copy, 'payment_confirmation.print')}
          </button>
          <a
            className="link-button"
            href={`${base}/payment`}
            onClick={(e) => {
              e.preventDefault();
              onOpen(`${base}/payment`);
            }}
          >
            {text(copy, 'payment_confirmation.edit')}
          </a>
        </div>
      </section>
      <p>{text(copy, 'payment_confirmation.instructions', { brand: text(copy, 'app.brand') })}</p>
      {/* The spec's Continue buys the policy; what it commits to is said beside it. */}
      <section className="panel panel--info commit" aria-labelledby="commit-heading">
        <h2 id="commit-heading" className="commit__heading">
          {text(copy, 'payment_confirmation.commit.heading')}
        </h2>
        <p id="commit-text">{text(copy, 'payment_confirmation.commit', { start: ukDate(bank.cover_start), brand: text(copy, 'app.brand') })}</p>
        <p id="commit-price">
          {bank.payment_frequency === 'AP'
            ? text(copy, 'payment_confirmation.commit.price_annual', { amount: price(view.summary.annual) })
            : text(copy, 'payment_confirmation.commit.price_monthly', { amount: price(view.summary.monthly) })}
        </p>
        {bank.first_collection && bank.payment_day && (
          <p id="commit-collection">{collectionText(copy, price, bank.payment_frequency === 'AP' ? 'AP' : 'MP', bank.payment_day, bank.first_collection)}</p>
        )}
      </section>
      <div className="actions">
        <button type="button" className="button" disabled={busy} onClick={onBuy} aria-describedby={bank.first_collection && bank.payment_day ? 'commit-text commit-price commit-collection' : 'commit-text commit-price'}>
          {busy ? text(copy, 'button.saving') : text(copy, 'payment_confirmation.continue')}
        </button>
      </div>
    </div>
  );
}
