/**
 * The page's side of the cookie choice (../../shared/consent.ts): what the banner shows, the
 * tag manager loaded on acceptance (and at once on a later page when accepted before), and a
 * withdrawal that reloads the page without it.
 */
import { useCallback, useEffect, useState } from 'react';

import type { BannerMode } from './CookieBanner';
import {
  type Choice,
  confirmAfterReload,
  deleteAnalyticsCookies,
  loadTagManager,
  noteChoice,
  readChoice,
  tagManagerLoaded,
  takeConfirmation,
  writeChoice,
} from '@/shared/consent';
import type { ShellView } from '@/shared/types';

export function useConsent(shell: ShellView | null) {
  const brand = shell?.id ?? null;
  const tagManager = shell?.tag_manager ?? null;
  const [choice, setChoice] = useState<Choice | null>(null);
  const [mode, setMode] = useState<BannerMode | null>(null);

  const script = tagManager?.script ?? null;
  const days = tagManager?.ask_again_after_days ?? 0;
  // Once per brand (the frame the HTML carried and the page's view name the same one).
  useEffect(() => {
    if (!brand) return;
    const remembered = readChoice(brand);
    noteChoice(remembered);
    setChoice(remembered);
    if (!script) return;
    if (remembered === 'granted') loadTagManager(script);
    const confirm = takeConfirmation();
    setMode(confirm && remembered ? 'confirmed' : remembered ? null : 'ask');
  }, [brand, script]);

  const choose = useCallback(
    (chosen: Choice) => {
      if (!brand || !script) return;
      const wasLoaded = tagManagerLoaded();
      writeChoice(brand, chosen, days);
      noteChoice(chosen);
      setChoice(chosen);
      if (chosen === 'granted') loadTagManager(script);
      else {
        deleteAnalyticsCookies();
        // A tag manager already running cannot be stopped: the page loads again without it.
        if (wasLoaded) {
          confirmAfterReload(chosen);
          window.location.reload();
          return;
        }
      }
      setMode('confirmed');
    },
    [brand, script, days],
  );
  const hide = useCallback(() => {
    setMode(null);
    document.getElementById('main')?.focus();
  }, []);
  const openSettings = useCallback(() => setMode('settings'), []);
  return { choice, mode, choose, hide, openSettings };
}
