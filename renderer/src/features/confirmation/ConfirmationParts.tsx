/**
 * The confirmation page's cards (owner-payment.md §2 Confirmation page): each pet's policy with
 * its number, cover, excess and premium; and the payment: the card taken, or the Direct Debit's
 * reference, masked account and first collection.
 */
import { coverTypeName, text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { Product, Purchase, ViewData } from '@/shared/types';
import { ukDate } from '@/features/form/widgets/StartDateWidget';

export function PolicyCard({
  view,
  copy,
  bought,
  policy,
}: {
  view: ViewData;
  copy: Record<string, string>;
  bought: Purchase;
  policy: Purchase['policies'][number];
}) {
  const { amount, price } = useMoney();
  const pet = view.pets.find((p) => p.original_id === policy.pet_original_id);
  const product = pet?.product as Product | undefined;
  return (
    <section className="card" key={policy.policy_number} aria-labelledby={`policy-${policy.policy_number}`}>
      <div className="policy__top">
        <h2 id={`policy-${policy.policy_number}`} className="pet__heading">
          {policy.pet_name}
        </h2>
        {/* journey.md §9: the rating badge, by the confirmation's own rule (the server's). */}
        {product?.Rated && <span className="badge">{text(copy, 'cover.rated')}</span>}
      </div>
      <dl className="summary">
        <div className="summary__row">
          <dt>{text(copy, 'confirmation.policy_number')}</dt>
          <dd>{policy.policy_number}</dd>
        </div>
        {product && (
          <div className="summary__row">
            <dt>{text(copy, 'review.pet.cover_type')}</dt>
            <dd>{text(copy, 'review.pet.cover', { type: coverTypeName(copy, product.Gid), limit: amount(String(product.LimitVal)) })}</dd>
          </div>
        )}
        {product?.Excess && (
          // journey.md §9, owner-payment.md §9: the excess on confirmation (£99 for dogs
          // and cats, £50 for rabbits by default), as bought.
          <div className="summary__row">
            <dt>{text(copy, 'confirmation.excess')}</dt>
            <dd>
              {text(copy, Number(product.coins) > 0 ? 'confirmation.excess.with_coins' : 'confirmation.excess.value', {
                excess: amount(product.Excess),
                percent: String(product.coins),
              })}
            </dd>
          </div>
        )}
        <div className="summary__row">
          <dt>{text(copy, bought.payment_frequency === 'AP' ? 'cover.yearly' : 'cover.monthly')}</dt>
          <dd>{price(bought.payment_frequency === 'AP' ? policy.annual_premium : policy.monthly_premium)}</dd>
        </div>
      </dl>
    </section>
  );
}

export function PaymentSummary({ copy, bought }: { copy: Record<string, string>; bought: Purchase }) {
  const { price } = useMoney();
  const first = bought.collections[0];
  return (
    <section className="card" aria-labelledby="payment-heading">
      <h2 id="payment-heading" className="pet__heading">
        {text(copy, bought.card ? 'confirmation.payment_card' : 'confirmation.payment')}
      </h2>
      {bought.card ? (
        <dl className="summary">
          <div className="summary__row">
            <dt>{text(copy, 'confirmation.card')}</dt>
            <dd>{text(copy, 'card_confirmation.card_value', { issuer: text(copy, `card.issuer.${bought.card.issuer.toLowerCase()}`), last4: bought.card.last4 })}</dd>
          </div>
          <div className="summary__row">
            <dt>{text(copy, 'confirmation.card_taken')}</dt>
            <dd>{price(bought.card.amount)}</dd>
          </div>
          {bought.collections[1] && (
            <div className="summary__row">
              <dt>{text(copy, 'confirmation.next_payment')}</dt>
              <dd>
                {price(bought.collections[1][1])}, {ukDate(bought.collections[1][0])}
              </dd>
            </div>
          )}
        </dl>
      ) : (
        <dl className="summary">
          <div className="summary__row">
            <dt>{text(copy, 'confirmation.reference')}</dt>
            <dd>{bought.mandate_reference}</dd>
          </div>
          <div className="summary__row">
            <dt>{text(copy, 'payment_confirmation.account_number')}</dt>
            <dd>{bought.account_number_masked}</dd>
          </div>
          {first && (
            <div className="summary__row">
              <dt>{text(copy, 'confirmation.first_collection')}</dt>
              <dd>
                {price(first[1])}, {ukDate(first[0])}
              </dd>
            </div>
          )}
        </dl>
      )}
    </section>
  );
}
