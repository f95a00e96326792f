/**
 * The inactivity dialogs (journey.md §2 Inactivity timeout, §9): the warning with its 120-second
 * countdown (information colour, orange at 60 s or less, red at 30 s or less), and after the reset
 * time the dialog that cannot be closed and offers "Start a new quote". Loaded only as the warning
 * nears (see InactivityTimer).
 */
import { useState } from 'react';

import { Modal } from '@/features/shell/Modal';
import { text } from '@/shared/copy';

const KEY = 'pawpath.lastActivity';
const COUNTDOWN_S = 120;

/**
 * A length of time in the page's words, in hours and minutes ("4 hours", "21 hours and 40
 * minutes", "2 minutes"; seconds only under an hour): the warning names the brand's own times
 * (journey.md §9: 4 hours, or 1 hour for one brand; the contact page's 78,000,000 ms; shorter on
 * test hosts). At most the two largest units, the rest rounded away.
 */
export function period(copy: Record<string, string>, ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1_000));
  const hours = Math.floor(seconds / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  const rest = seconds % 60;
  const counts: [number, string][] = hours > 0 ? [[hours, 'hour'], [minutes, 'minute']] : [[minutes, 'minute'], [rest, 'second']];
  const parts = counts
    .filter(([count]) => count > 0)
    .map(([count, unit]) => text(copy, `timeout.period.${unit}${count === 1 ? '' : 's'}`, { count: String(count) }));
  return parts.length === 2 ? text(copy, 'timeout.period.and', { first: parts[0], second: parts[1] }) : parts[0];
}

/** The countdown's colour for the seconds left (journey.md §2: orange at 60 s or less, red at 30). */
export function countdownTone(remaining: number): 'info' | 'orange' | 'red' {
  return remaining <= 30 ? 'red' : remaining <= 60 ? 'orange' : 'info';
}

export function TimeoutDialogs({
  expired,
  idle,
  warningMs,
  resetMs,
  copy,
  savedAs,
  onReset,
  onContinue,
}: {
  expired: boolean;
  idle: number;
  warningMs: number;
  resetMs: number;
  copy: Record<string, string>;
  /** The quote's reference, where it is kept to be retrieved. */
  savedAs: string | null;
  /** Ends the quote on this browser and answers where the new one starts, and where the kept one is retrieved. */
  onReset: () => Promise<{ start: string; retrieve: string | null }>;
  onContinue: () => void;
}) {
  const [resetting, setResetting] = useState(false);
  if (expired) {
    const leave = (to: 'start' | 'retrieve') => async () => {
      setResetting(true);
      const { start, retrieve } = await onReset();
      sessionStorage.removeItem(KEY);
      window.location.assign(to === 'retrieve' && retrieve ? retrieve : start);
    };
    return (
      <Modal titleId="reset-title" title={text(copy, 'timeout.reset.title')} onCancel={() => undefined}>
        {savedAs ? (
          // A quote with the owner's email is kept: it is said so, with how to come back to it.
          <p>{text(copy, 'timeout.reset.body_saved', { reference: savedAs })}</p>
        ) : (
          <p>{text(copy, 'timeout.reset.body')}</p>
        )}
        <div className="dialog__actions">
          {savedAs && (
            <button type="button" className="button" disabled={resetting} onClick={leave('retrieve')}>
              {text(copy, 'timeout.reset.retrieve')}
            </button>
          )}
          <button type="button" className={savedAs ? 'button button--secondary' : 'button'} disabled={resetting} onClick={leave('start')}>
            {text(copy, 'timeout.reset.button')}
          </button>
        </div>
      </Modal>
    );
  }
  const remaining = Math.max(0, Math.min(COUNTDOWN_S, Math.ceil((resetMs - idle) / 1000)));
  const tone = countdownTone(remaining);
  const minutes = Math.floor(remaining / 60);
  const seconds = String(remaining % 60).padStart(2, '0');
  return (
    <Modal
      titleId="warning-title"
      title={text(copy, 'timeout.warning.title')}
      onCancel={onContinue}
    >
      <p>
        {text(copy, 'timeout.warning.body', {
          period: period(copy, resetMs),
          left: period(copy, resetMs - warningMs),
        })}
      </p>
      <p className={`countdown countdown--${tone}`} role="timer" aria-live="off">
        {minutes}:{seconds}
      </p>
      <div className="dialog__actions">
        <button
          type="button"
          className="button"
          onClick={onContinue}
        >
          {text(copy, 'timeout.warning.continue')}
        </button>
      </div>
    </Modal>
  );
}
