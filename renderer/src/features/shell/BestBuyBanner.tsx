/**
 * journey.md §2 Usp bar: "A Which?-style best-buy banner and promo block show on choose-policy and
 * review for dog quotes on one brand" (journeys/brands: best_buy_banner). The award is the
 * brand's own copy.
 */
import { useId } from 'react';

import { text } from '@/shared/copy';
import type { ViewData } from '@/shared/types';
import './shell.css';

/** Shown beside a dog's cover only (`pets`: the pets the place it is drawn in is about). */
export function BestBuyBanner({ view, pets, copy }: { view: ViewData; pets: ViewData['pets']; copy: Record<string, string> }) {
  const headingId = useId();
  const dogs = pets.some((p) => p.pet_type === 'dog');
  if (!view.shell?.best_buy_banner || !dogs) return null;
  return (
    <aside className="best-buy" aria-labelledby={headingId}>
      <p className="best-buy__mark" aria-hidden="true">
        {text(copy, 'best_buy.mark')}
      </p>
      <div>
        <h2 id={headingId} className="best-buy__title">
          {text(copy, 'best_buy.title')}
        </h2>
        <p className="best-buy__body">{text(copy, 'best_buy.body')}</p>
        <p className="best-buy__promo">{text(copy, 'best_buy.promo')}</p>
      </div>
    </aside>
  );
}
