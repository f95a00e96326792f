/**
 * A modal dialog (journey.md §2 Modals): a native `<dialog>` shown modally while mounted, so
 * focus stays inside, Escape cancels and focus returns to where it was. In a portal, so a modal
 * opened from inside a page's form is never a form inside that form.
 */
import { type ReactNode, useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import './shell.css';

export function Modal({
  titleId,
  title,
  onCancel,
  children,
  closeLabel,
}: {
  titleId: string;
  title: string;
  onCancel: () => void;
  children: ReactNode;
  /** A close button in a header that stays in view as a long modal scrolls (the benefits on a phone). */
  closeLabel?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => {
      if (d?.open) d.close();
    };
  }, []);
  return createPortal(
    <dialog
      ref={dialog}
      className="dialog dialog--form"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      {closeLabel ? (
        <div className="dialog__header">
          <h2 id={titleId} className="dialog__title">
            {title}
          </h2>
          <button type="button" className="button button--secondary dialog__close" onClick={onCancel}>
            {closeLabel}
          </button>
        </div>
      ) : (
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
      )}
      {children}
    </dialog>,
    document.body,
  );
}
