/** The upsell (journey.md §2 Cover select, §4): the next levels up, each with what it costs more a month. */
import { text } from '@/shared/copy';
import { fromPence, toPence, useMoney } from '@/shared/money';
import type { Product } from '@/shared/types';
import '@/features/products/cover.css';

export function UpsellCard({
  offers,
  chosen,
  copy,
  busy,
  onChoose,
}: {
  offers: Product[];
  chosen: Product;
  copy: Record<string, string>;
  busy: boolean;
  onChoose: (product: Product) => void;
}) {
  const { amount, price } = useMoney();
  return (
    <section className="card upsell" aria-labelledby="upsell-heading">
      <h2 id="upsell-heading" className="pet__heading">
        {text(copy, 'cover.upsell.heading')}
      </h2>
      <ul className="upsell__list">
        {offers.map((p) => (
          <li key={p.Code}>
            <p>
              {text(copy, 'cover.upsell.body', {
                difference: price(fromPence(toPence(p.RecurringMonthly) - toPence(chosen.RecurringMonthly))),
                limit: amount(String(p.LimitVal)),
              })}
            </p>
            <button type="button" className="button button--secondary" disabled={busy} onClick={() => onChoose(p)}>
              {text(copy, 'cover.upsell.choose', { limit: amount(String(p.LimitVal)) })}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
