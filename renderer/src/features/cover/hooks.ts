/** The cover select page's hooks: its columns, whether the benefits block has been seen, and the sticky price bar's height. */
import { useEffect, useState } from 'react';

/** journey.md §2: 3 columns on small screens, 5 on large, breakpoint 579 px. */
export const WIDE = '(min-width: 579px)';

export function useColumns(): number {
  const query = typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(WIDE) : null;
  const [wide, setWide] = useState(query?.matches ?? true);
  useEffect(() => {
    if (!query) return;
    const on = () => setWide(query.matches);
    query.addEventListener('change', on);
    return () => query.removeEventListener('change', on);
  }, [query]);
  return wide ? 5 : 3;
}

/** Whether an element has been in view (journey.md §4: submit waits for the benefits block). */
export function useSeen(ref: React.RefObject<HTMLElement | null>, reset: unknown): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    setSeen(false);
    const el = ref.current;
    if (!el) return;
    if (typeof IntersectionObserver === 'undefined') {
      setSeen(true);
      return;
    }
    // Not seen while it is only under the sticky price bar.
    const bar = parseInt(getComputedStyle(document.documentElement).getPropertyValue('--price-bar-height'), 10) || 0;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setSeen(true);
      },
      { rootMargin: `0px 0px -${bar}px 0px` },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [ref, reset]);
  return seen;
}

/**
 * The sticky price bar never hides what has focus (WCAG 2.2 2.4.11 Focus Not Obscured): once the
 * browser has scrolled a newly focused element into view, one that ends under the bar is
 * scrolled up clear of it. Keeps `--price-bar-height` on the document at the bar's height (what
 * counts as seen of the benefits block leaves it out).
 */
export function useBarHeight(ref: React.RefObject<HTMLElement | null>) {
  useEffect(() => {
    const bar = ref.current;
    const root = document.documentElement;
    if (!bar) return;
    const set = () => root.style.setProperty('--price-bar-height', `${Math.ceil(bar.getBoundingClientRect().height)}px`);
    set();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(set);
    observer?.observe(bar);
    let frame = 0;
    const clear = (e: FocusEvent) => {
      const target = e.target;
      if (!(target instanceof HTMLElement) || bar.contains(target)) return;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const barTop = bar.getBoundingClientRect().top;
        const r = target.getBoundingClientRect();
        // A margin for the focus ring (3 px outline, 2 px offset, 5 px shadow).
        if (r.bottom + 8 <= barTop) return;
        // One taller than the room above the bar shows from its top.
        window.scrollBy({ top: r.height + 16 > barTop ? r.top - 8 : r.bottom + 8 - barTop });
      });
    };
    document.addEventListener('focusin', clear);
    return () => {
      observer?.disconnect();
      document.removeEventListener('focusin', clear);
      cancelAnimationFrame(frame);
      root.style.removeProperty('--price-bar-height');
    };
  }, [ref]);
}
