/**
 * The owner's details on the review page (journey.md §2 Review), as answers to check, each with
 * its Change (issue 59): name, date of birth, email, phone and address through the owner's
 * modals; offers and news; quote reminders, with "Email me this quote".
 */
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import type { Notice } from '@/features/journey/journey-machine';
import { ownerName, text } from '@/shared/copy';
import type { ViewData } from '@/shared/types';
import { type AnswerRow, CheckAnswers } from './CheckAnswers';
import { EmailQuoteButton } from './EmailQuoteButton';
import { type ReviewModal, marketingSummary, ownerAddress } from './review';
import './review.css';

export function OwnerDetailsCard({
  view,
  copy,
  onModal,
  notify,
}: {
  view: ViewData;
  copy: Record<string, string>;
  onModal: (modal: ReviewModal) => void;
  notify: (notice: Notice) => void;
}) {
  const owner = view.owner;
  const editable = Boolean(view.edits.your_details);
  const change = (modal: ReviewModal) => (editable ? () => onModal(modal) : undefined);
  const phone = typeof owner.customer_contact_number === 'string' ? owner.customer_contact_number : '';
  const rows: AnswerRow[] = [
    { key: 'name', label: text(copy, 'review.details.name'), value: ownerName(copy, owner), onChange: change({ kind: 'owner', variant: 'full', field: 'owner.customer_title' }) },
    ...(typeof owner.customer_date_of_birth === 'string'
      ? [{ key: 'dob', label: text(copy, 'owner.dob.label'), value: ukDate(owner.customer_date_of_birth), onChange: change({ kind: 'owner', variant: 'full', field: 'owner.customer_date_of_birth' }) }]
      : []),
    { key: 'email', label: text(copy, 'owner.email.label'), value: String(owner.email_address ?? ''), onChange: change({ kind: 'owner', variant: 'full', field: 'owner.email_address' }) },
    {
      key: 'phone',
      label: text(copy, 'owner.phone.label'),
      value: phone || text(copy, 'review.details.phone_none'),
      onChange: change(phone ? { kind: 'owner', variant: 'full', field: 'owner.customer_contact_number' } : { kind: 'owner', variant: 'phone' }),
    },
    { key: 'address', label: text(copy, 'review.details.address'), value: ownerAddress(owner), onChange: change({ kind: 'owner', variant: 'address' }) },
    ...(editable
      ? [{ key: 'marketing', label: text(copy, 'review.marketing.heading'), value: marketingSummary(copy, owner), onChange: () => onModal({ kind: 'owner', variant: 'marketing' }) }]
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
      {view.edits.quote_reminder && (
        <p className="review__email-quote">
          <EmailQuoteButton csrf={view.csrf} copy={copy} notify={notify} />
        </p>
      )}
    </section>
  );
}
