/**
 * The confirmation page (owner-payment.md §2 Confirmation page): the welcome header with the pet
 * icons, the policy start date, each pet's cover with its policy number, and the payment
 * confirmation: the Direct Debit reference, the masked account and the first collection. The
 * page's heading takes the focus (the journey does this for every new step). Below, the pet
 * portal's password and the customer's marketing and communication preferences, each saved on its own.
 */
import { useEffect } from 'react';

import { requestConfirmationEmail } from '@/features/journey/api';
import { PetIcon } from '@/features/products/PetIcon';
import type { Notice } from '@/features/journey/journey-machine';
import { CommunicationsPanel } from '@/features/preferences/CommunicationsPanel';
import { PortalPasswordForm } from './PortalPasswordForm';
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import { coverTypeName, text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { Product, ViewData } from '@/shared/types';

export function ConfirmationStep({
  view,
  copy,
  onRefresh,
  onNotice,
}: {
  view: ViewData;
  copy: Record<string, string>;
  onRefresh: () => void;
  onNotice: (n: Notice) => void;
}) {
  const { amount, price } = useMoney();
  const bought = view.purchase;
  const purchaseId = bought?.id;
  useEffect(() => {
    // owner-payment.md §4 Confirmation: once shown, the confirmation email is requested. Asking
    // twice (a reload, React's development double effects) sends one email: the server's outbox
    // holds one per purchase.
    if (purchaseId) void requestConfirmationEmail();
  }, [purchaseId]);
  if (!bought) return null;
  const first = bought.collections[0];
  return (
    <div className="confirmation">
      <section className="card" aria-labelledby="welcome-heading">
        <h2 id="welcome-heading" className="pet__heading">
          {view.pets.length === 1
            ? text(copy, 'confirmation.welcome_one', { brand: text(copy, 'app.brand') })
            : text(copy, 'confirmation.welcome', { brand: text(copy, 'app.brand') })}
        </h2>
        <ul className="review__pets">
          {view.pets.slice(0, 4).map((p, i) => (
            <li key={String(p.original_id ?? i)}>
              <PetIcon species={String(p.pet_type ?? '')} />
              <span>{String(p.pet_name ?? '')}</span>
            </li>
          ))}
        </ul>
        <p>{text(copy, 'confirmation.start', { date: ukDate(bought.cover_start) })}</p>
        {typeof view.owner.email_address === 'string' && view.owner.email_address !== '' && (
          <p>{text(copy, 'confirmation.emailed', { email: view.owner.email_address })}</p>
        )}
      </section>
      {bought.policies.map((policy) => {
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
      })}
      {view.nectar_bonus && (
        // owner-payment.md §4 Nectar card, §9: the bonus the promotion earns, capped at 20,000.
        <section className="card" aria-labelledby="nectar-heading">
          <h2 id="nectar-heading" className="pet__heading">
            {text(copy, 'confirmation.nectar.heading')}
          </h2>
          <p>
            {text(copy, 'confirmation.nectar.points', { points: new Intl.NumberFormat(view.language).format(view.nectar_bonus.points), card: view.nectar_bonus.card_last4 })}
            {view.nectar_bonus.capped && ` ${text(copy, 'confirmation.nectar.capped', { cap: new Intl.NumberFormat(view.language).format(view.nectar_bonus.cap) })}`}
          </p>
        </section>
      )}
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
      <p>{text(copy, 'confirmation.portal')}</p>
      {bought.portal_registered ? (
        <p className="panel panel--info" role="status">
          {text(copy, 'portal.saved')}
        </p>
      ) : bought.portal_open ? (
        <PortalPasswordForm view={view} copy={copy} onSaved={onRefresh} />
      ) : (
        <p className="panel panel--info">{text(copy, 'portal.closed')}</p>
      )}
      {/* owner-payment.md §1: once bought, the marketing and communication preferences can still be set. */}
      <CommunicationsPanel edit={view.edits.communications} csrf={view.csrf} copy={copy} onNotice={onNotice} marketing />
    </div>
  );
}
