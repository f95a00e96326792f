/**
 * The inactivity timeout (journey.md §2 Inactivity timeout, §4 Timers, §9): activity is noted in
 * session storage (debounced 250 ms), so every tab of the quote shares it. After the warning time
 * a modal counts down from 120 seconds (information colour, orange at 60 s or less, red at 30 s
 * or less, stopping at 0); after the reset time a modal that cannot be closed offers "Start a new
 * quote", which resets the journey and goes to /quote. The server resets an idle quote on its
 * own clock too.
 */
import { useEffect, useRef, useState } from 'react';

import { Modal } from '@/features/shell/Modal';
import { text } from '@/shared/copy';
import './shell.css';

const KEY = 'pawpath.lastActivity';
const DEBOUNCE_MS = 250;
const COUNTDOWN_S = 120;

function lastActivity(): number {
  const stored = Number(sessionStorage.getItem(KEY));
  return Number.isFinite(stored) && stored > 0 ? stored : Date.now();
}

function noteActivity() {
  sessionStorage.setItem(KEY, String(Date.now()));
}

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

export function InactivityTimer({
  warningMs,
  resetMs,
  copy,
  onReset,
}: {
  warningMs: number;
  resetMs: number;
  copy: Record<string, string>;
  onReset: () => Promise<void>;
}) {
  const [idle, setIdle] = useState(0);
  const [resetting, setResetting] = useState(false);
  const warned = idle >= warningMs && idle < resetMs;
  const expired = idle >= resetMs;
  const frozen = useRef(false);
  frozen.current = expired;

  useEffect(() => {
    if (!sessionStorage.getItem(KEY)) noteActivity();
    let timer = 0;
    const onActivity = () => {
      // Once reset, activity no longer counts: the quote is gone.
      if (frozen.current) return;
      window.clearTimeout(timer);
      timer = window.setTimeout(noteActivity, DEBOUNCE_MS);
    };
    const events = ['mousemove', 'mousedown', 'keydown', 'scroll', 'touchstart'] as const;
    for (const e of events) window.addEventListener(e, onActivity, { passive: true });
    const tick = window.setInterval(() => setIdle(Date.now() - lastActivity()), 1000);
    return () => {
      for (const e of events) window.removeEventListener(e, onActivity);
      window.clearInterval(tick);
      window.clearTimeout(timer);
    };
  }, []);

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
              await onReset();
              sessionStorage.removeItem(KEY);
              window.location.assign('/quote');
            }}
          >
            {text(copy, 'timeout.reset.button')}
          </button>
        </div>
      </Modal>
    );
  }
  if (warned) {
    const remaining = Math.max(0, Math.min(COUNTDOWN_S, Math.ceil((resetMs - idle) / 1000)));
    const tone = countdownTone(remaining);
    const minutes = Math.floor(remaining / 60);
    const seconds = String(remaining % 60).padStart(2, '0');
    return (
      <Modal
        titleId="warning-title"
        title={text(copy, 'timeout.warning.title')}
        onCancel={() => {
          noteActivity();
          setIdle(0);
        }}
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
            onClick={() => {
              noteActivity();
              setIdle(0);
            }}
          >
            {text(copy, 'timeout.warning.continue')}
          </button>
        </div>
      </Modal>
    );
  }
  return null;
}
