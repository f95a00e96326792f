/**
 * The owner's details on the review page (journey.md §2 Review; owner-payment.md §2 Review quote
 * header: the user details panel with its edit modal and add-phone button), as answers to check
 *; the address and quote reminders each with their own Change.
 */
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import { ownerName, text } from '@/shared/copy';
import type { ViewData } from '@/shared/types';
import { type AnswerRow, CheckAnswers } from './CheckAnswers';
import { type ReviewModal, marketingSummary, ownerAddress } from './review';
import './review.css';

export function OwnerDetailsCard({
  view,
  copy,
  onModal,
}: {
  view: ViewData;
  copy: Record<string, string>;
  onModal: (modal: ReviewModal) => void;
}) {
  const owner = view.owner;
  const editable = Boolean(view.edits.your_details);
  const change = (modal: ReviewModal) => (editable ? () => onModal(modal) : undefined);
  const phone = typeof owner.customer_contact_number === 'string' ? owner.customer_contact_number : '';
  // owner-payment.md §2: the user details panel with its edit modal (marketing preferences in it
  // too), and an add-phone button when no phone is held; the address and the quote reminders each
  // with their own Change.
  const rows: AnswerRow[] = [
    { key: 'name', label: text(copy, 'review.details.name'), value: ownerName(copy, owner) },
    ...(typeof owner.customer_date_of_birth === 'string' ? [{ key: 'dob', label: text(copy, 'owner.dob.label'), value: ukDate(owner.customer_date_of_birth) }] : []),
    { key: 'email', label: text(copy, 'owner.email.label'), value: String(owner.email_address ?? '') },
    ...(phone ? [{ key: 'phone', label: text(copy, 'owner.phone.label'), value: phone }] : []),
    { key: 'address', label: text(copy, 'review.details.address'), value: ownerAddress(owner), onChange: change({ kind: 'owner', variant: 'address' }) },
    ...(editable
      ? [{ key: 'marketing', label: text(copy, 'review.marketing.heading'), value: marketingSummary(copy, owner) }]
      : []),
    ...(view.edits.quote_reminder
      ? [
          {
            key: 'reminders',
            label: text(copy, 'review.reminder.heading'),
            value: text(copy, view.no_quote_chase_email ? 'review.reminder.off' : 'review.reminder.on'),
            onChange: () => onModal({ kind: 'reminder' }),
          },
        ]
      : []),
  ].map((row) => ({ ...row, changeName: row.label.toLowerCase() }));
  return (
    <section className="card" aria-labelledby="review-details-heading">
      <h2 id="review-details-heading" className="pet__heading">
        {text(copy, 'review.details.heading')}
      </h2>
      <CheckAnswers rows={rows} copy={copy} />
      {editable && (
        <div className="review-pet__actions">
          <button type="button" className="button button--secondary" onClick={() => onModal({ kind: 'owner', variant: 'full' })}>
            {text(copy, 'review.details.edit')}
          </button>
          {!phone && (
            <button type="button" className="link-button" onClick={() => onModal({ kind: 'owner', variant: 'phone' })}>
              {text(copy, 'review.details.add_phone')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
