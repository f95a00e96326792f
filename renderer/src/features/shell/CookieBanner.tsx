/**
 * The cookie banner (the ICO's guidance on cookies): first on the page, before the skip
 * link, for a brand with a tag manager whose customer has not chosen. Accepting and rejecting are
 * two equal buttons side by side; nothing non-essential loads until one is pressed. The footer's
 * Cookie settings opens it again with the choice in force.
 *
 * Asking, it is the same markup as the HTML's first paint (renderer/index.html, filled in by
 * server/src/routes/pages.rs first_paint_frame), so the page does not move when the script
 * arrives; tests/e2e/first-paint.spec.ts compares the two.
 */
import { type MouseEvent, type ReactNode, useEffect, useRef } from 'react';

import { text } from '@/shared/copy';
import type { Choice } from '@/shared/consent';
import type { ShellView } from '@/shared/types';

export type BannerMode = 'ask' | 'settings' | 'confirmed';

export function CookieBanner({
  shell,
  copy,
  mode,
  choice,
  onChoose,
  onHide,
  onOpen,
}: {
  shell: ShellView;
  copy: Record<string, string>;
  mode: BannerMode;
  choice: Choice | null;
  onChoose: (choice: Choice) => void;
  onHide: () => void;
  onOpen: (path: string) => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const confirmation = useRef<HTMLParagraphElement>(null);
  // Opened from the footer, focus moves to the banner; a choice made, to what confirms it.
  useEffect(() => {
    if (mode === 'settings') heading.current?.focus();
    if (mode === 'confirmed') confirmation.current?.focus();
  }, [mode]);
  const policy = shell.pages.privacy;
  const follow = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    onOpen(policy);
  };
  const frame = (inner: ReactNode) => (
    <div className="cookie-banner" role="region" aria-label={text(copy, 'cookies.banner.label')}>
      <div className="cookie-banner__inner">{inner}</div>
    </div>
  );
  if (mode === 'confirmed') {
    return frame(
      <>
        <p className="cookie-banner__confirmation" tabIndex={-1} ref={confirmation}>
          {text(copy, choice === 'granted' ? 'cookies.banner.accepted' : 'cookies.banner.rejected')}
        </p>
        <div className="cookie-banner__buttons">
          <button type="button" className="button cookie-banner__button" onClick={onHide}>
            {text(copy, 'cookies.banner.hide')}
          </button>
        </div>
      </>,
    );
  }
  return frame(
    <>
      <h2 className="cookie-banner__heading" ref={heading} {...(mode === 'settings' ? { tabIndex: -1 } : {})}>
        {text(copy, 'cookies.banner.heading')}
      </h2>
      <p>{text(copy, 'cookies.banner.necessary')}</p>
      <p>{text(copy, 'cookies.banner.analytics')}</p>
      {mode === 'settings' && choice && (
        <p className="cookie-banner__current">{text(copy, choice === 'granted' ? 'cookies.banner.now_accepted' : 'cookies.banner.now_rejected')}</p>
      )}
      <div className="cookie-banner__buttons">
        <button type="button" className="button cookie-banner__button" onClick={() => onChoose('granted')}>
          {text(copy, 'cookies.banner.accept')}
        </button>
        <button type="button" className="button cookie-banner__button" onClick={() => onChoose('denied')}>
          {text(copy, 'cookies.banner.reject')}
        </button>
        <a className="cookie-banner__link" href={policy} onClick={follow}>
          {text(copy, 'cookies.banner.policy')}
        </a>
        {mode === 'settings' && (
          <button type="button" className="cookie-banner__hide" onClick={onHide}>
            {text(copy, 'cookies.banner.hide')}
          </button>
        )}
      </div>
    </>,
  );
}
