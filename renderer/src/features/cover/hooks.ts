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
    const set = () => {
      const height = Math.ceil(bar.getBoundingClientRect().height);
      // A bar that would cover more than a quarter of the window stays in its place on the page.
      bar.classList.toggle('price-bar--static', height > window.innerHeight / 4);
      root.style.setProperty('--price-bar-height', `${sticks(bar) ? height : 0}px`);
    };
    set();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(set);
    observer?.observe(bar);
    window.addEventListener('resize', set);
    let frame = 0;
    const clear = (e: FocusEvent) => {
      const target = e.target;
      if (!(target instanceof HTMLElement) || bar.contains(target) || !sticks(bar)) return;
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
      window.removeEventListener('resize', set);
      document.removeEventListener('focusin', clear);
      cancelAnimationFrame(frame);
      root.style.removeProperty('--price-bar-height');
    };
  }, [ref]);
}

/** Whether the bar is stuck to the window's foot (not where the window is short: cover.css). */
function sticks(bar: HTMLElement): boolean {
  return getComputedStyle(bar).position === 'sticky';
}
