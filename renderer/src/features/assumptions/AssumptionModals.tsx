/**
 * The assumptions page's modals (journey.md §2 Modals): a pet's assumptions changed (or the pet
 * removed from there), its pre-existing conditions, and the cover start date.
 */
import { EditDialog } from '@/features/form/EditDialog';
import type { EditRequest } from '@/features/journey/journey-machine';
import { text } from '@/shared/copy';
import type { FieldMessage, ViewData } from '@/shared/types';
import { type Modal, withDefaults } from './assumptions';

export function AssumptionModals({
  view,
  copy,
  modal,
  busy,
  editErrors,
  editSubmissions,
  nameOf,
  onEdit,
  onClose,
  onRemove,
}: {
  view: ViewData;
  copy: Record<string, string>;
  modal: Modal;
  busy: boolean;
  editErrors: readonly FieldMessage[];
  editSubmissions: number;
  nameOf: (index: number) => string;
  onEdit: (request: EditRequest) => void;
  onClose: () => void;
  onRemove: (index: number) => void;
}) {
  const edits = view.edits;
  return (
    <>
      {modal?.kind === 'assumptions' && edits.assumptions && (
        <EditDialog
          questions={{ ...edits.assumptions, answers: withDefaults(edits.assumptions) }}
          title={text(copy, 'assumptions.edit.title', { petName: nameOf(modal.pet) })}
          onlyPet={modal.pet}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => onClose()}
          onRemovePet={onRemove}
          onSave={(a) =>
            onEdit({
              form: edits.assumptions?.id ?? '',
              call: edits.assumptions?.submit ?? '',
              answers: a,
            })
          }
        />
      )}
      {modal?.kind === 'pre_existing' && edits.pre_existing && (
        <EditDialog
          questions={edits.pre_existing}
          title={text(copy, 'pre_existing.title', { petName: nameOf(modal.pet) })}
          onlyPet={modal.pet}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => onClose()}
          onSave={(a) => onEdit({ form: edits.pre_existing?.id ?? '', call: edits.pre_existing?.submit ?? '', answers: a, notice: 'pre_existing.saved' })}
        />
      )}
      {modal?.kind === 'start_date' && edits.start_date && (
        <EditDialog
          questions={{ ...edits.start_date, answers: { owner: { pet_policy_start_date: view.start_date.chosen } } }}
          title={text(copy, 'start_date.title')}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => onClose()}
          onSave={(a) => onEdit({ form: edits.start_date?.id ?? '', call: edits.start_date?.submit ?? '', answers: a, notice: 'start_date.saved' })}
        />
      )}
    </>
  );
}
