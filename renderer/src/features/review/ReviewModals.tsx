/**
 * The review page's modals (journey.md §2 Modals): the owner's details in three forms, the cover
 * start date, pre-existing conditions, a pet's details, its cover, its benefits, documents and
 * excess, and the quote reminder; each saves through its own call.
 */
import { BenefitsModal } from '@/features/products/BenefitsModal';
import { ChooseCoverModal, coverAnswers } from '@/features/products/ChooseCoverModal';
import { EditDialog, onlyOwnerFields } from '@/features/form/EditDialog';
import type { EditRequest, Notice } from '@/features/journey/journey-machine';
import { addressMoved } from '@/shared/address';
import { text } from '@/shared/copy';
import type { FieldMessage, Product, ViewData } from '@/shared/types';
import { DocumentsExcessModal } from './DocumentsExcessModal';
import { OWNER_FIELDS, OWNER_TITLES, type ReviewModal, petEdit } from './review';

export function ReviewModals({
  view,
  copy,
  busy,
  modal,
  editErrors,
  editSubmissions,
  onEdit,
  notify,
  onClose,
}: {
  view: ViewData;
  copy: Record<string, string>;
  busy: boolean;
  modal: ReviewModal;
  editErrors: readonly FieldMessage[];
  editSubmissions: number;
  onEdit: (request: EditRequest) => void;
  notify: (notice: Notice) => void;
  onClose: () => void;
}) {
  const pets = view.pets;
  const productsOf = (i: number) => view.products.filter((p) => p.petid === i + 1);

  function saveOwner(answers: Record<string, unknown>) {
    const moved = addressMoved(view.owner, (answers.owner ?? {}) as Record<string, unknown>);
    // owner-payment.md §4 Owner save, §8: a changed address re-quotes; once prices exist the
    // information toast says the price may have changed.
    onEdit(
      moved && view.products.length > 0
        ? { form: view.edits.your_details?.id ?? '', call: view.edits.your_details?.submit ?? '', answers, notice: 'review.address_changed', noticeKind: 'info' }
        : { form: view.edits.your_details?.id ?? '', call: view.edits.your_details?.submit ?? '', answers, notice: 'toast.details_updated' },
    );
  }

  return (
    <>
      {modal?.kind === 'owner' && view.edits.your_details && (
        <EditDialog
          questions={view.edits.your_details}
          ui={onlyOwnerFields(view.edits.your_details, OWNER_FIELDS[modal.variant])}
          title={text(copy, OWNER_TITLES[modal.variant])}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onNotice={notify}
          focusOn={modal.field}
          onCancel={() => onClose()}
          onSave={saveOwner}
        />
      )}
      {modal?.kind === 'start_date' && view.edits.start_date && (
        <EditDialog
          questions={{ ...view.edits.start_date, answers: { owner: { pet_policy_start_date: view.start_date.chosen } } }}
          title={text(copy, 'start_date.title')}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => onClose()}
          onSave={(a) => onEdit({ form: view.edits.start_date?.id ?? '', call: view.edits.start_date?.submit ?? '', answers: a, notice: 'start_date.saved' })}
        />
      )}
      {modal?.kind === 'pre_existing' && view.edits.pre_existing && (
        <EditDialog
          questions={view.edits.pre_existing}
          title={text(copy, 'pre_existing.title', { petName: String(pets[modal.pet]?.pet_name ?? '') })}
          onlyPet={modal.pet}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => onClose()}
          onSave={(a) => onEdit({ form: view.edits.pre_existing?.id ?? '', call: view.edits.pre_existing?.submit ?? '', answers: a, notice: 'pre_existing.saved' })}
        />
      )}
      {modal?.kind === 'pet' && petEdit(view) && (
        // journey.md §2 Modals "edit pet details": the pet's answers changed in place; the review
        // comes back with the new prices, or the page the change now needs.
        <EditDialog
          questions={petEdit(view)!}
          title={text(copy, 'review.pet.edit', { petName: String(pets[modal.pet]?.pet_name ?? '') })}
          onlyPet={modal.pet}
          focusOn={modal.field}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => onClose()}
          onSave={(a) =>
            onEdit({ form: petEdit(view)!.id, call: petEdit(view)!.submit ?? '', answers: a, notice: 'review.updated' })
          }
        />
      )}
      {modal?.kind === 'cover' && view.edits.cover && (
        <ChooseCoverModal
          view={view}
          copy={copy}
          index={modal.pet}
          busy={busy}
          onCancel={() => onClose()}
          onSave={(code) => onEdit({ form: view.edits.cover?.id ?? '', call: view.edits.cover?.submit ?? '', answers: coverAnswers(view, modal.pet, code), notice: 'review.updated' })}
        />
      )}
      {modal?.kind === 'benefits' && (
        <BenefitsModal
          products={productsOf(modal.pet).filter((p) => p.Gid === (pets[modal.pet]?.product as Product | undefined)?.Gid)}
          copy={copy}
          chosen={(pets[modal.pet]?.product as Product | undefined)?.Code ?? null}
          documents={view.documents.find((d) => d.petid === modal.pet + 1)}
          onClose={() => onClose()}
        />
      )}
      {modal?.kind === 'excess' && <DocumentsExcessModal view={view} copy={copy} onClose={() => onClose()} />}
      {modal?.kind === 'reminder' && view.edits.quote_reminder && (
        <EditDialog
          questions={view.edits.quote_reminder}
          title={text(copy, 'review.reminder.heading')}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => onClose()}
          onSave={(a) =>
            // owner-payment.md §7: /api/noquotechaseemail takes {csrf, noquotechaseemail}.
            onEdit({
              call: view.edits.quote_reminder?.submit ?? '',
              answers: { noquotechaseemail: (a.owner as { no_quote_chase_email?: boolean } | undefined)?.no_quote_chase_email === true },
              notice: 'review.reminder.saved',
            })
          }
        />
      )}
    </>
  );
}
