/** The cover select page's tabs (journey.md §2 Cover select): Cover type, Cover level, Excess. */
import { useRef } from 'react';

import { text } from '@/shared/copy';
import '@/features/products/cover.css';

export type Tab = 'type' | 'level' | 'excess';

/** An ARIA tab list: arrow keys move between tabs, Home and End to the ends. */
export function Tabs({ tabs, current, copy, onOpen, labelledBy }: { tabs: Tab[]; current: Tab; copy: Record<string, string>; onOpen: (t: Tab) => void; labelledBy: string }) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  function key(e: React.KeyboardEvent, i: number) {
    const to = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : null;
    if (to === null) return;
    e.preventDefault();
    const j = (to + tabs.length) % tabs.length;
    onOpen(tabs[j]);
    refs.current[j]?.focus();
  }
  return (
    <div role="tablist" className="tabs" aria-labelledby={labelledBy}>
      {tabs.map((t, i) => (
        <button
          key={t}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          role="tab"
          id={`cover-tab-${t}`}
          aria-selected={t === current}
          aria-controls={`cover-panel-${t}`}
          tabIndex={t === current ? 0 : -1}
          className={`tabs__tab${t === current ? ' tabs__tab--current' : ''}`}
          onClick={() => onOpen(t)}
          onKeyDown={(e) => key(e, i)}
        >
          <span className="tabs__number">{i + 1}</span> {text(copy, `cover.tabs.${t}`)}
        </button>
      ))}
    </div>
  );
}
