/**
 * What the review says beside the quote (owner-payment.md §2 Review quote: "why-insure and
 * what-to-expect copy, a rating block"; §9 Documents and static copy: the Defaqto 5-star notice):
 * the rating block where a chosen product is rated (journey.md §9 5-star rating badge), why
 * insure, and what happens next. The words are the brand's copy.
 */
import { coverTypeName, text } from '@/shared/copy';
import type { Product, ViewData } from '@/shared/types';

export function ReviewReassurance({ view, copy, part }: { view: ViewData; copy: Record<string, string>; part: 'rating' | 'reading' }) {
  const chosen = view.pets
    .map((pet, i) => view.products.find((p) => p.petid === i + 1 && p.Code === (pet.product as Product | undefined)?.Code))
    .filter((p): p is Product => Boolean(p));
  const rated = chosen.filter((p) => p.Rated);
  const ratedTypes = [...new Set(rated.map((p) => coverTypeName(copy, p.Gid)))].join(', ');
  return (
    <>
      {part === 'rating' && rated.length > 0 && (
        <section className="card review__rating" aria-labelledby="review-rating-heading">
          <h2 id="review-rating-heading" className="pet__heading">
            <span className="badge">{text(copy, 'cover.rated')}</span> {text(copy, 'review.rating.heading')}
          </h2>
          <p>{text(copy, 'review.rating.body', { cover: ratedTypes })}</p>
          <p className="hint">{text(copy, 'review.rating.notice')}</p>
        </section>
      )}
      {/* Read if wanted, folded, after the way on: the page is about checking the quote. */}
      {part === 'reading' && (
      <>
      <details className="card accordion review__fold">
        <summary className="accordion__summary">
          <h2 className="review__fold-heading">{text(copy, 'review.why.heading')}</h2>
        </summary>
        <ul className="review__list">
          {['1', '2', '3'].map((n) => (
            <li key={n}>{text(copy, `review.why.${n}`)}</li>
          ))}
        </ul>
      </details>
      <details className="card accordion review__fold">
        <summary className="accordion__summary">
          <h2 className="review__fold-heading">{text(copy, 'review.next.heading')}</h2>
        </summary>
        <ol className="review__list">
          {['1', '2', '3'].map((n) => (
            <li key={n}>{text(copy, `review.next.${n}`)}</li>
          ))}
        </ol>
      </details>
      </>
      )}
    </>
  );
}
