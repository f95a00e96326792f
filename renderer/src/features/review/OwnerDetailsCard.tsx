/** The owner's details on the review page (journey.md §2 Review), with the ways to change them. */
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import { ownerName, text } from '@/shared/copy';
import type { ViewData } from '@/shared/types';
import { type ReviewModal, ownerAddress } from './review';
import './review.css';

export function OwnerDetailsCard({ view, copy, onModal }: { view: ViewData; copy: Record<string, string>; onModal: (modal: ReviewModal) => void }) {
  const owner = view.owner;
  return (
    <section className="card" aria-labelledby="review-details-heading">
      <h2 id="review-details-heading" className="pet__heading">
        {text(copy, 'review.details.heading')}
      </h2>
      <dl className="summary">
        <div className="summary__row">
          <dt>{text(copy, 'review.details.name')}</dt>
          <dd>{ownerName(copy, owner)}</dd>
        </div>
        {typeof owner.customer_date_of_birth === 'string' && (
          <div className="summary__row">
            <dt>{text(copy, 'owner.dob.label')}</dt>
            <dd>{ukDate(owner.customer_date_of_birth)}</dd>
          </div>
        )}
        <div className="summary__row">
          <dt>{text(copy, 'owner.email.label')}</dt>
          <dd>{String(owner.email_address ?? '')}</dd>
        </div>
        {typeof owner.customer_contact_number === 'string' && owner.customer_contact_number && (
          <div className="summary__row">
            <dt>{text(copy, 'owner.phone.label')}</dt>
            <dd>{owner.customer_contact_number}</dd>
          </div>
        )}
        <div className="summary__row">
          <dt>{text(copy, 'review.details.address')}</dt>
          <dd>{ownerAddress(owner)}</dd>
        </div>
      </dl>
      {view.edits.your_details && (
        <div className="review-pet__actions">
          <button type="button" className="button button--secondary" onClick={() => onModal({ kind: 'owner', variant: 'full' })}>
            {text(copy, 'review.details.edit')}
          </button>
          <button type="button" className="link-button" onClick={() => onModal({ kind: 'owner', variant: 'address' })}>
            {text(copy, 'review.details.edit_address')}
          </button>
          {!owner.customer_contact_number && (
            <button type="button" className="link-button" onClick={() => onModal({ kind: 'owner', variant: 'phone' })}>
              {text(copy, 'review.details.add_phone')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
