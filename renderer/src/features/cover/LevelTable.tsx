/** The cover level table (journey.md §2 Cover select): a carousel of limits, 3 columns small and 5 large. */
import { useEffect, useState } from 'react';

import { text } from '@/shared/copy';
import { postHeaders } from '@/shared/post-headers';
import { useMoney } from '@/shared/money';
import type { Product } from '@/shared/types';
import { useColumns } from './hooks';
import { termValue } from '@/features/products/cover';
import '@/features/products/cover.css';

export function beacon(csrf: string, keys: string[]) {
  const body = JSON.stringify({ csrf, locale: 'en-GB', key: keys });
  const blob = new Blob([body], { type: 'application/json' });
  if (navigator.sendBeacon?.('/api/trackViewedProducts', blob)) return;
  void fetch('/api/trackViewedProducts', { method: 'POST', headers: postHeaders(csrf), body, keepalive: true, credentials: 'same-origin' });
}

export function LevelTable({
  products,
  chosen,
  copy,
  busy,
  petName,
  track,
  csrf,
  onChoose,
  onNext,
}: {
  products: Product[];
  chosen: string | null;
  copy: Record<string, string>;
  busy: boolean;
  petName: string;
  /** The pet's original id when its viewed products are tracked (pets other than the first). */
  track: string | null;
  csrf: string;
  onChoose: (code: string) => void;
  onNext: () => void;
}) {
  const { amount, price } = useMoney();
  const columns = useColumns();
  const visible = Math.min(columns, products.length);
  const positions = Math.max(1, products.length - visible + 1);
  const chosenIndex = Math.max(0, products.findIndex((p) => p.Code === chosen));
  const [start, setStart] = useState(() => Math.min(Math.max(0, chosenIndex - Math.floor(visible / 2)), positions - 1));
  const shown = products.slice(start, start + visible);
  const rows = products[0]?.PolicyTerms.filter((t) => t.biline) ?? [];
  // A rating every level shares is said once, not in every column.
  const allRated = products.length > 0 && products.every((p) => p.Rated);

  useEffect(() => {
    // journey.md §7: viewed products by beacon, for pets other than the first.
    if (track) beacon(csrf, shown.map((p) => `${track}_${p.Code}`));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [track, start]);

  useEffect(() => {
    if (start > positions - 1) setStart(positions - 1);
  }, [positions, start]);

  if (products.length === 0) return null;
  return (
    <div className="levels">
      <p className="levels__heading">
        {text(copy, 'cover.level.heading', { petName })}
        {allRated && (
          <>
            {' '}
            <span className="badge">{text(copy, 'cover.rated')}</span>
          </>
        )}
      </p>
      <div className="levels__stepper">
        <button type="button" className="icon-button" aria-label={text(copy, 'cover.level.previous')} disabled={start === 0} onClick={() => setStart(start - 1)}>
          −
        </button>
        <ul className="levels__dots">
          {Array.from({ length: positions }, (_, i) => (
            <li key={i}>
              <button
                type="button"
                className={`dot${i === start ? ' dot--current' : ''}`}
                aria-label={text(copy, 'cover.level.page', { n: String(i + 1) })}
                aria-current={i === start || undefined}
                onClick={() => setStart(i)}
              />
            </li>
          ))}
        </ul>
        <button type="button" className="icon-button" aria-label={text(copy, 'cover.level.next')} disabled={start >= positions - 1} onClick={() => setStart(start + 1)}>
          +
        </button>
      </div>
      <table className="levels__table">
        <caption className="visually-hidden">{text(copy, 'cover.level.heading', { petName })}</caption>
        <thead>
          <tr>
            <td />
            {shown.map((p) => (
              <th scope="col" key={p.Code} className={p.Code === chosen ? 'levels__chosen' : undefined}>
                <span className="levels__limit">{text(copy, 'cover.limit', { limit: amount(String(p.LimitVal)) })}</span>
                {p.Rated && !allRated && <span className="badge levels__badge">{text(copy, 'cover.rated')}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{text(copy, 'cover.monthly')}</th>
            {shown.map((p) => (
              <td key={p.Code} className={p.Code === chosen ? 'levels__chosen' : undefined}>
                {busy ? <span className="skeleton" /> : <strong className="levels__price">{price(p.RecurringMonthly)}</strong>}
              </td>
            ))}
          </tr>
          {rows.map((r) => (
            <tr key={r.desc}>
              <th scope="row">{text(copy, r.desc)}</th>
              {shown.map((p) => {
                const t = p.PolicyTerms.find((x) => x.desc === r.desc);
                return (
                  <td key={p.Code} className={p.Code === chosen ? 'levels__chosen' : undefined}>
                    {t ? termValue(copy, t) : text(copy, 'benefit.not_included')}
                  </td>
                );
              })}
            </tr>
          ))}
          <tr>
            <td />
            {shown.map((p) => (
              <td key={p.Code} className={p.Code === chosen ? 'levels__chosen' : undefined}>
                <button type="button" className={`button${p.Code === chosen ? '' : ' button--secondary'}`} aria-pressed={p.Code === chosen} disabled={busy} onClick={() => onChoose(p.Code)}>
                  {p.Code === chosen ? text(copy, 'cover.selected') : text(copy, 'cover.select')}
                  <span className="visually-hidden"> – {amount(String(p.LimitVal))}</span>
                </button>
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      <div className="actions">
        <button type="button" className="button button--secondary" disabled={!chosen} onClick={onNext}>
          {text(copy, 'cover.tabs.excess')}
        </button>
      </div>
    </div>
  );
}
