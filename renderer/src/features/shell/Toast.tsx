/** The generic error toast (journey.md §8): "title: content", closing itself after 5 seconds. */
import { useEffect } from 'react';

export const TOAST_MS = 5000;

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
  kind?: 'success' | 'error';
}) {
  useEffect(() => {
    const timer = window.setTimeout(onClose, TOAST_MS);
    return () => window.clearTimeout(timer);
  }, [onClose]);
  return (
    <div className={`toast toast--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      <p>
        <strong>{title}:</strong> {content}
      </p>
      <button type="button" className="toast__close" onClick={onClose} aria-label={closeLabel}>
        ×
      </button>
    </div>
  );
}
