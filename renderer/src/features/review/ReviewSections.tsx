/**
 * The review page's sections that show the quote (journey.md §2 Review; owner-payment.md §2
 * Review quote header): the header with the pets, reference, dates and totals; the discounts,
 * monthly or yearly; and each pet's documents with the documents-and-excess link.
 */
import { useState } from 'react';

import { ukDate } from '@/features/form/widgets/StartDateWidget';
import { PetIcon } from '@/features/products/PetIcon';
import { DocumentLinks } from '@/features/shell/DocumentLinks';
import { text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { ViewData } from '@/shared/types';
import type { ReviewModal } from './review';

export function ReviewHeader({
  view,
  copy,
  onOpen,
  onModal,
}: {
  view: ViewData;
  copy: Record<string, string>;
  onOpen: (path: string) => void;
  onModal: (modal: ReviewModal) => void;
}) {
  const { price } = useMoney();
  const pets = view.pets;
  const summary = view.summary;
  return (
    <section className="card review__header" aria-labelledby="review-quote-heading">
      <h2 id="review-quote-heading" className="visually-hidden">
        {text(copy, 'review.heading')}
      </h2>
      <ul className="review__pets">
        {pets.slice(0, 4).map((p, i) => (
          <li key={String(p.original_id ?? i)}>
            <PetIcon species={String(p.pet_type ?? '')} />
            <span>{String(p.pet_name ?? '')}</span>
          </li>
        ))}
      </ul>
      <dl className="quote-facts">
        <div>
          <dt>{text(copy, 'cover.quote_reference')}</dt>
          <dd>{view.qidu}</dd>
        </div>
        <div>
          <dt>{text(copy, 'cover.starts')}</dt>
          <dd>
            {ukDate(view.start_date.chosen)}
            {view.edits.start_date && (
              <>
                {' '}
                <button type="button" className="link-button quote-facts__change" onClick={() => onModal({ kind: 'start_date' })}>
                  {text(copy, 'review.answer.change')}
                  <span className="visually-hidden"> {text(copy, 'review.start.change_hidden')}</span>
                </button>
              </>
            )}
          </dd>
        </div>
        {view.valid_until && (
          <div>
            <dt>{text(copy, 'cover.valid_until')}</dt>
            <dd>{ukDate(view.valid_until)}</dd>
          </div>
        )}
        {pets.length > 1 && (
          <div className="quote-facts__total">
            <dt>{text(copy, 'review.total')}</dt>
            <dd>
              <strong>{price(summary.monthly)}</strong> {text(copy, 'cover.per_month')} · {price(summary.annual)} {text(copy, 'cover.per_year')}
            </dd>
          </div>
        )}
      </dl>
      {view.channel === 'aggregator' && view.shell?.pages.promotion_terms && (
        // The comparison site's promotion: its terms (owner-payment.md §9 Documents and static copy).
        <p className="hint">
          <a
            href={view.shell.pages.promotion_terms}
            onClick={(e) => {
              e.preventDefault();
              onOpen(view.shell?.pages.promotion_terms ?? '');
            }}
          >
            {text(copy, 'review.promotion_terms')}
          </a>
        </p>
      )}
    </section>
  );
}

/** The discounts, monthly or yearly where there is a discount to show either way. */
export function ReviewDiscounts({ view, copy }: { view: ViewData; copy: Record<string, string> }) {
  const { price } = useMoney();
  const [annual, setAnnual] = useState(false);
  const summary = view.summary;
  const discounts = annual ? summary.discounts_annual : summary.discounts_monthly;
  return (
    <section className="card" aria-labelledby="review-discounts-heading">
      <h2 id="review-discounts-heading" className="pet__heading">
        {text(copy, 'review.discounts.heading')}
      </h2>
      {/* Monthly or yearly amounts, where there is a discount to show either way. */}
      {summary.discounts_monthly.length > 0 && (
      <fieldset className="field choice">
        <legend className="visually-hidden">{text(copy, 'review.discounts.view')}</legend>
        <div className="choice__options choice__options--inline">
          {[false, true].map((a) => (
            <div className="choice__option" key={String(a)}>
              <input type="radio" id={`discounts-${a ? 'annual' : 'monthly'}`} name="discounts-view" checked={annual === a} onChange={() => setAnnual(a)} />
              <label htmlFor={`discounts-${a ? 'annual' : 'monthly'}`}>{text(copy, a ? 'review.discounts.annual' : 'review.discounts.monthly')}</label>
            </div>
          ))}
        </div>
      </fieldset>
      )}
      {discounts.length > 0 ? (
        <dl className="summary">
          {discounts.map(([key, value]) => (
            <div className="summary__row" key={key}>
              <dt>{text(copy, key)}</dt>
              <dd>
                −{price(value)} {text(copy, annual ? 'cover.per_year' : 'cover.per_month')}
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p>{text(copy, 'review.discount.none')}</p>
      )}
      {summary.multipet_pending && <p className="hint">{text(copy, 'review.discount.multipet_pending')}</p>}
    </section>
  );
}

/** Each pet's documents, and the documents-and-excess modal's link. */
export function ReviewDocuments({
  view,
  copy,
  onModal,
}: {
  view: ViewData;
  copy: Record<string, string>;
  onModal: (modal: ReviewModal) => void;
}) {
  const pets = view.pets;
  if (!view.documents.some((d) => d.items.length > 0)) return null;
  return (
  <section className="card" aria-labelledby="review-documents-heading">
        <h2 id="review-documents-heading" className="pet__heading">
          {text(copy, 'review.documents.heading')}
        </h2>
        <p>{text(copy, 'review.documents.intro')}</p>
        {view.documents.filter((d) => d.items.length > 0).map((d) => {
          const name = String(pets[d.petid - 1]?.pet_name ?? '');
          return (
            <div key={d.petid} className="documents">
              <h3 className="documents__pet">{name}</h3>
              <DocumentLinks documents={d.items} copy={copy} suffix={name} />
            </div>
          );
        })}
        <button type="button" className="link-button" onClick={() => onModal({ kind: 'excess' })}>
          {text(copy, 'review.documents.excess_link')}
        </button>
      </section>
  );
}
