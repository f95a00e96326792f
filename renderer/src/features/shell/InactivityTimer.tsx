/**
 * The inactivity timeout (journey.md §2 Inactivity timeout, §4 Timers, §9): activity is noted in
 * session storage (debounced 250 ms), so every tab of the quote shares it. After the warning time
 * a modal counts down from 120 seconds (information colour, orange at 60 s or less, red at 30 s
 * or less, stopping at 0); after the reset time a modal that cannot be closed offers "Start a new
 * quote", which resets the journey and goes to /quote, and, for a quote kept to be retrieved,
 * the way back to it. The server resets an idle quote on its own clock too.
 */
import { useEffect, useRef, useState } from 'react';

import { onDemand } from '@/shared/on-demand';
import './shell.css';

/** The two dialogs, loaded as the warning nears (the first page carries only the clock). */
const Dialogs = onDemand(() => import('./TimeoutDialogs').then((m) => m.TimeoutDialogs));

/** How long before the warning its code is fetched. */
const PREPARE_MS = 60_000;

const KEY = 'pawpath.lastActivity';
const DEBOUNCE_MS = 250;

function lastActivity(): number {
  const stored = Number(sessionStorage.getItem(KEY));
  return Number.isFinite(stored) && stored > 0 ? stored : Date.now();
}

export function noteActivity() {
  sessionStorage.setItem(KEY, String(Date.now()));
}

export function InactivityTimer({
  warningMs,
  resetMs,
  copy,
  savedAs,
  onReset,
}: {
  warningMs: number;
  resetMs: number;
  copy: Record<string, string>;
  /** The quote's reference, where it is kept to be retrieved (the owner's email is stored). */
  savedAs: string | null;
  onReset: () => Promise<{ start: string; retrieve: string | null }>;
}) {
  const [idle, setIdle] = useState(0);
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

  if (idle >= warningMs - PREPARE_MS) void Dialogs.prepare();
  if (!warned && !expired) return null;
  return (
    <Dialogs.Component
      expired={expired}
      idle={idle}
      warningMs={warningMs}
      resetMs={resetMs}
      copy={copy}
      savedAs={savedAs}
      onReset={onReset}
      onContinue={() => {
        noteActivity();
        setIdle(0);
      }}
    />
  );
}
