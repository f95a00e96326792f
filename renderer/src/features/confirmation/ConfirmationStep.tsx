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
import { PaymentSummary, PolicyCard } from './ConfirmationParts';
import { PortalPasswordForm } from './PortalPasswordForm';
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import { text } from '@/shared/copy';
import type { ViewData } from '@/shared/types';

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
  const bought = view.purchase;
  const purchaseId = bought?.id;
  useEffect(() => {
    // owner-payment.md §4 Confirmation: once shown, the confirmation email is requested. Asking
    // twice (a reload, React's development double effects) sends one email: the server's outbox
    // holds one per purchase.
    if (purchaseId) void requestConfirmationEmail();
  }, [purchaseId]);
  if (!bought) return null;
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
      {bought.policies.map((policy) => (
        <PolicyCard key={policy.policy_number} view={view} copy={copy} bought={bought} policy={policy} />
      ))}
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
      <PaymentSummary copy={copy} bought={bought} />
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
