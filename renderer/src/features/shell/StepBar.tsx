/** The step bar (journey.md §2): numbered steps with their status; earlier steps are links. */
import { text } from '@/shared/copy';
import type { StepBarItem } from '@/shared/types';
import './shell.css';

export function StepBar({ items, copy, onOpen }: { items: StepBarItem[]; copy: Record<string, string>; onOpen: (path: string) => void }) {
  // Pages outside the journey (retrieve quote) have no step bar.
  if (items.length === 0) return null;
  return (
    <nav className="step-bar" aria-label={text(copy, 'stepbar.label')}>
      <ol className="step-bar__list">
        {items.map((item) => {
          const content = (
            <>
              <span className="step-bar__number" aria-hidden="true">
                {item.status === 'completed' ? '✓' : item.number}
              </span>
              <span className="step-bar__label">
                <span className="visually-hidden">{text(copy, 'stepbar.step', { number: String(item.number) })} </span>
                {item.label}
                {item.status === 'completed' && <span className="visually-hidden"> {text(copy, 'stepbar.completed')}</span>}
              </span>
            </>
          );
          return (
            <li key={item.number} className={`step-bar__item step-bar__item--${item.status}`} aria-current={item.status === 'current' ? 'step' : undefined}>
              {item.clickable ? (
                <a
                  href={item.path}
                  className="step-bar__link"
                  onClick={(e) => {
                    e.preventDefault();
                    onOpen(item.path);
                  }}
                >
                  {content}
                </a>
              ) : (
                <span className="step-bar__link">{content}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
