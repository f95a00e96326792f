/**
 * Toasts (journey.md §8, owner-payment.md §8): success and error show "title: content", info and
 * warning the content only; each closes itself after 5 seconds.
 */
import { useEffect } from 'react';
import './shell.css';

export const TOAST_MS = 5000;

export type ToastKind = 'success' | 'error' | 'info' | 'warning';

/**
 * A success or error toast's title as it leads the content (journey.md §8 Toast format: "title:
 * content"). A title that ends its own sentence ("Error!", a brand's variant, §8 "Error! An error
 * occurred…") is followed by a space, not a colon.
 */
export function toastLead(title: string): string {
  return /[!?.:]$/.test(title) ? `${title} ` : `${title}: `;
}

export function Toast({
  title,
  content,
  closeLabel,
  onClose,
  kind = 'error',
}: {
  title: string;
  content: string;
  closeLabel: string;
  onClose: () => void;
  kind?: ToastKind;
}) {
  useEffect(() => {
    const timer = window.setTimeout(onClose, TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [onClose]);
  return (
    <div className={`toast toast--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      <p>
        {(kind === 'success' || kind === 'error') && <strong>{toastLead(title)}</strong>}
        {content}
      </p>
      <button type="button" className="toast__close" onClick={onClose} aria-label={closeLabel}>
        ×
      </button>
    </div>
  );
}
