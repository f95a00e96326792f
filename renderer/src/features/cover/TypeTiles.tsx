/** The cover type tiles (journey.md §2 Cover select, §4 Cover selection). */

import { text } from '@/shared/copy';
import { toPence, useMoney } from '@/shared/money';
import type { Product } from '@/shared/types';
import { type Group, groupsOf, inGroup } from '@/features/products/cover';
import '@/features/products/cover.css';

export function TypeTiles({
  products,
  chosen,
  copy,
  busy,
  onChoose,
  onBenefits,
}: {
  products: Product[];
  chosen: Group | null;
  copy: Record<string, string>;
  busy: boolean;
  onChoose: (g: Group) => void;
  onBenefits: () => void;
}) {
  const { price } = useMoney();
  return (
    <ul className="tiles">
      {groupsOf(products).map((g) => {
        const group = inGroup(products, g);
        const cheapest = group.reduce((a, b) => (toPence(b.RecurringMonthly) < toPence(a.RecurringMonthly) ? b : a));
        const key = g.toLowerCase();
        const titleId = `tile-${key}`;
        return (
          <li key={g} className={`tile${chosen === g ? ' tile--chosen' : ''}`} aria-labelledby={titleId}>
            <h3 id={titleId} className="tile__title">
              {text(copy, `cover.type.${key}`)}
            </h3>
            <p>{text(copy, `cover.type.${key}.blurb`)}</p>
            <ul className="tile__points">
              {[1, 2, 3].map((n) => (
                <li key={n}>{text(copy, `cover.type.${key}.usp.${n}`)}</li>
              ))}
            </ul>
            <details className="tile__tip">
              <summary>{text(copy, 'cover.what_it_means')}</summary>
              <p>{text(copy, `cover.type.${key}.tt`)}</p>
            </details>
            <p className="tile__price">{busy ? <span className="skeleton" /> : text(copy, 'cover.from', { price: price(cheapest.RecurringMonthly) })}</p>
            <div className="tile__actions">
              <button type="button" className="button" disabled={busy} aria-pressed={chosen === g} onClick={() => onChoose(g)}>
                {chosen === g ? text(copy, 'cover.selected') : text(copy, 'cover.choose_type')}
                <span className="visually-hidden"> – {text(copy, `cover.type.${key}`)}</span>
              </button>
              <button type="button" className="link-button" onClick={onBenefits}>
                {text(copy, 'cover.view_benefits')}
                <span className="visually-hidden"> – {text(copy, `cover.type.${key}`)}</span>
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
