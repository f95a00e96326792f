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
 * A length of time in the page's words, in the largest whole unit ("4 hours", "1 hour",
 * "2 minutes"): the warning names the brand's own times (journey.md §9: 4 hours, or 1 hour for
 * one brand; shorter on test hosts).
 */
export function period(copy: Record<string, string>, ms: number): string {
  const units: [number, string][] = [
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1_000, 'second'],
  ];
  const [size, unit] = units.find(([size]) => ms >= size && ms % size === 0) ?? units[2];
  const count = Math.max(1, Math.round(ms / size));
  return text(copy, `timeout.period.${unit}${count === 1 ? '' : 's'}`, { count: String(count) });
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
  onReset,
  onContinue,
}: {
  expired: boolean;
  idle: number;
  warningMs: number;
  resetMs: number;
  copy: Record<string, string>;
  /** Resets the quote and answers where the new one starts. */
  onReset: () => Promise<string>;
  onContinue: () => void;
}) {
  const [resetting, setResetting] = useState(false);
  if (expired) {
    return (
      <Modal titleId="reset-title" title={text(copy, 'timeout.reset.title')} onCancel={() => undefined}>
        <p>{text(copy, 'timeout.reset.body')}</p>
        <div className="dialog__actions">
          <button
            type="button"
            className="button"
            disabled={resetting}
            onClick={async () => {
              setResetting(true);
              const start = await onReset();
              sessionStorage.removeItem(KEY);
              window.location.assign(start);
            }}
          >
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
