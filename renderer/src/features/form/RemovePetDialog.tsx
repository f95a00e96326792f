/**
 * The remove-pet modal (journey.md §2 Modals): "Remove {petName} from the application?", the
 * permanence warning, the multi-pet discount warning, and Remove pet. A native modal dialog over
 * a dimmed page: focus starts on Cancel, never on the permanent action, stays inside,
 * Escape cancels, and returns to where it was.
 */
import { useEffect, useRef } from 'react';

import { text } from '@/shared/copy';
import './form.css';

export function RemovePetDialog({
  name,
  copy,
  onConfirm,
  onCancel,
}: {
  name: string | null;
  copy: Record<string, string>;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (name !== null && !d.open) {
      d.showModal();
      cancel.current?.focus();
    }
    if (name === null && d.open) d.close();
  }, [name]);
  const who = name ?? '';
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby="remove-pet-title"
      aria-describedby="remove-pet-body"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id="remove-pet-title" className="dialog__title">
        {text(copy, 'remove_pet.title', { name: who })}
      </h2>
      <p id="remove-pet-body">{text(copy, 'remove_pet.body', { name: who })}</p>
      <p className="panel panel--info">{text(copy, 'remove_pet.discount_warning')}</p>
      <div className="dialog__actions">
        <button type="button" className="button button--danger" onClick={onConfirm}>
          {text(copy, 'button.remove_pet')}
        </button>
        <button type="button" className="button button--secondary" ref={cancel} onClick={onCancel}>
          {text(copy, 'button.cancel')}
        </button>
      </div>
    </dialog>
  );
}
