/**
 * The card payment check (owner-payment.md §2 /creditcard-confirmation), for brands that take
 * cards: the card as a receipt shows it (issuer, last four digits, name, expiry, all from the
 * payment provider), the cover start date, what is taken today and then each month, a link back
 * to change the card, and Pay now, which buys the quote and charges the card once. A declined
 * card is said here, and the customer can go back and use another.
 */
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import { text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { FieldMessage, ViewData } from '@/shared/types';

export function CardConfirmationStep({
  view,
  copy,
  busy,
  serverErrors,
  onOpen,
  onBuy,
}: {
  view: ViewData;
  copy: Record<string, string>;
  busy: boolean;
  serverErrors: readonly FieldMessage[];
  onOpen: (path: string) => void;
  onBuy: () => void;
}) {
  const { price } = useMoney();
  const card = view.payment as { card_issuer?: string; card_last4?: string; card_name?: string; card_expiry?: string; payment_frequency?: string };
  const base = view.step.path.replace(/\/creditcard-confirmation$/, '');
  const yearly = card.payment_frequency === 'AP';
  const issuer = text(copy, `card.issuer.${(card.card_issuer ?? '').toLowerCase()}`);
  return (
    <div className="payment-confirmation">
      {serverErrors.length > 0 && (
        <div className="panel panel--stop" role="alert">
          {/* A declined card says so; anything else (a referral) says only what the server says. */}
          {serverErrors.some((e) => e.field.startsWith('payment.')) && <p className="panel__title">{text(copy, 'card_confirmation.declined.title')}</p>}
          {serverErrors.map((e) => (
            <p key={e.field}>{e.message}</p>
          ))}
        </div>
      )}
      <section className="card" aria-labelledby="card-heading">
        <h2 id="card-heading" className="pet__heading">
          {text(copy, 'card_confirmation.heading')}
        </h2>
        <p>{text(copy, 'card_confirmation.intro')}</p>
        <dl className="summary">
          <div className="summary__row">
            <dt>{text(copy, 'card_confirmation.card')}</dt>
            <dd>{text(copy, 'card_confirmation.card_value', { issuer, last4: card.card_last4 ?? '' })}</dd>
          </div>
          <div className="summary__row">
            <dt>{text(copy, 'card_confirmation.name')}</dt>
            <dd>{card.card_name}</dd>
          </div>
          <div className="summary__row">
            <dt>{text(copy, 'card_confirmation.expiry')}</dt>
            <dd>{card.card_expiry}</dd>
          </div>
          <div className="summary__row">
            <dt>{text(copy, 'card_confirmation.start')}</dt>
            <dd>{ukDate(view.start_date.chosen)}</dd>
          </div>
          <div className="summary__row">
            <dt>{text(copy, 'card_confirmation.today')}</dt>
            <dd>{price(yearly ? view.summary.annual : view.summary.monthly)}</dd>
          </div>
          {!yearly && (
            <div className="summary__row">
              <dt>{text(copy, 'card_confirmation.then')}</dt>
              <dd>{price(view.summary.monthly)}</dd>
            </div>
          )}
        </dl>
        <div className="review-pet__actions">
          <a
            className="link-button"
            href={`${base}/payment`}
            onClick={(e) => {
              e.preventDefault();
              onOpen(`${base}/payment`);
            }}
          >
            {text(copy, 'card_confirmation.edit')}
          </a>
        </div>
      </section>
      <p className="panel panel--info commit" id="card-commit">
        {text(copy, 'card_confirmation.commit', { start: ukDate(view.start_date.chosen), amount: price(yearly ? view.summary.annual : view.summary.monthly) })}
      </p>
      <div className="actions">
        <button type="button" className="button" disabled={busy} onClick={onBuy} aria-describedby="card-commit">
          {busy ? text(copy, 'button.saving') : text(copy, 'card_confirmation.pay')}
        </button>
      </div>
    </div>
  );
}
