/**
 * The review page (journey.md §2 Review; owner-payment.md §2 Review quote header, §4 Prices):
 * the header with up to four pet icons, the quote reference, cover start, valid until and, with
 * more than one pet, the totals; a block per pet with its prices and cover, the claim
 * contribution chooser (re-priced at once through /api/changecoins), edit, change cover and
 * remove; the cover start date and the owner's details, each with its modal (the owner's in
 * three forms: address, full details, add a phone number); pre-existing conditions; the
 * discounts; the discount code block; add another pet; Continue.
 */
import { useState } from 'react';

import { CodesPanel } from '@/features/codes/CodesPanel';
import type { EditRequest, Notice } from '@/features/journey/journey-machine';
import { RemovePetDialog } from '@/features/form/RemovePetDialog';
import { text } from '@/shared/copy';
import type { FieldMessage, ViewData } from '@/shared/types';
import { DemandsNeeds } from './DemandsNeeds';
import { EmailQuoteButton } from './EmailQuoteButton';
import type { ReviewModal } from './review';
import { ReviewDiscounts, ReviewDocuments, ReviewHeader } from './ReviewSections';
import { ReviewModals } from './ReviewModals';
import { ReviewPetCard } from './ReviewPetCard';
import { ReviewReassurance } from './ReviewReassurance';
import { OwnerDetailsCard } from './OwnerDetailsCard';
import './review.css';

export function ReviewStep({
  view,
  copy,
  busy,
  editErrors,
  editSubmissions,
  onEdit,
  onRemovePet,
  onAddPet,
  onOpen,
  onContinue,
  notify,
  onRefresh,
}: {
  view: ViewData;
  copy: Record<string, string>;
  busy: boolean;
  editErrors: readonly FieldMessage[];
  editSubmissions: number;
  onEdit: (request: EditRequest) => void;
  onRemovePet: (id: number) => void;
  /** journey.md §4 Add another pet: a fresh pet slot, then the pet details page. */
  onAddPet: () => void;
  onOpen: (path: string) => void;
  /** Continue: on to the next page, as the customer's own step forward. */
  onContinue: (path: string) => void;
  notify: (notice: Notice) => void;
  onRefresh: (notice?: Notice) => void;
}) {
  const [modal, setModal] = useState<ReviewModal>(null);
  const [removing, setRemoving] = useState<number | null>(null);
  const pets = view.pets;
  const summary = view.summary;
  const base = view.step.path.replace(/\/review$/, '');

  return (
    <div className="review">
      <ReviewHeader view={view} copy={copy} onOpen={onOpen} onModal={setModal} />

      {pets.map((pet, i) => (
        <ReviewPetCard
          key={String(pet.original_id ?? i)}
          view={view}
          copy={copy}
          busy={busy}
          pet={pet}
          index={i}
          onEdit={onEdit}
          onOpen={onOpen}
          onModal={setModal}
          onRemove={setRemoving}
        />
      ))}

      <DemandsNeeds view={view} copy={copy} />

      <OwnerDetailsCard view={view} copy={copy} onModal={setModal} />

      <ReviewDiscounts view={view} copy={copy} />

      <ReviewDocuments view={view} copy={copy} onModal={setModal} />

      {(view.edits.promo_code || view.edits.referral_code) && (
        <CodesPanel
          view={view}
          copy={copy}
          busy={busy}
          editErrors={editErrors}
          editSubmissions={editSubmissions}
          onEdit={onEdit}
          notify={notify}
          onRefresh={onRefresh}
        />
      )}

      <ReviewReassurance view={view} copy={copy} part="rating" />

      <div className="actions">
        <button type="button" className="button" disabled={busy || !summary.every_pet_chosen} onClick={() => onContinue(view.step.next ?? `${base}/assumptions`)}>
          {text(copy, 'review.continue')}
        </button>
      </div>

      {/* The other ways on, after Continue (the way to buy is not behind them). */}
      <section className="card" aria-labelledby="review-add-pet-heading">
        <h2 id="review-add-pet-heading" className="pet__heading">
          {text(copy, 'review.add_pet')}
        </h2>
        <p>{text(copy, 'review.add_pet.body')}</p>
        <button type="button" className="button button--secondary" disabled={busy} onClick={onAddPet}>
          {text(copy, 'review.add_pet')}
        </button>
      </section>
      {view.edits.quote_reminder && (
        <p className="review__email-quote">
          <EmailQuoteButton csrf={view.csrf} copy={copy} notify={notify} />
        </p>
      )}

      <ReviewReassurance view={view} copy={copy} part="reading" />

      <ReviewModals
        view={view}
        copy={copy}
        busy={busy}
        modal={modal}
        editErrors={editErrors}
        editSubmissions={editSubmissions}
        onEdit={onEdit}
        notify={notify}
        onClose={() => setModal(null)}
      />
      <RemovePetDialog
        name={removing === null ? null : String(pets[removing]?.pet_name ?? '')}
        copy={copy}
        onConfirm={() => {
          if (removing !== null) onRemovePet(removing + 1);
          setRemoving(null);
        }}
        onCancel={() => setRemoving(null)}
      />
    </div>
  );
}
