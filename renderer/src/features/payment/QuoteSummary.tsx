/**
 * The quote summary on the payment page (owner-payment.md §2 Payment page), collapsed into an
 * accordion: each pet's cover and price with its claim terms, and the total, monthly or yearly.
 */
import { ClaimTerms } from '@/features/products/ClaimTerms';
import { coverTypeName, text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { Product, ViewData } from '@/shared/types';

export function QuoteSummary({ view, copy, yearly }: { view: ViewData; copy: Record<string, string>; yearly: boolean }) {
  const { amount, price } = useMoney();
  return (
    <details className="card accordion">
      <summary className="accordion__summary">
        {text(copy, 'payment.summary')}: {yearly ? price(view.summary.annual) : price(view.summary.monthly)} {text(copy, yearly ? 'cover.per_year' : 'cover.per_month')}
      </summary>
      <dl className="summary">
        {view.pets.map((pet, i) => {
          const product = pet.product as Product | undefined;
          return product ? (
            <div className="summary__row" key={String(pet.original_id ?? i)}>
              <dt>
                {String(pet.pet_name ?? '')}: {coverTypeName(copy, product.Gid)} {amount(String(product.LimitVal))}
              </dt>
              <dd>
                {yearly ? price(product.AnnualPremium) : price(product.RecurringMonthly)} {text(copy, yearly ? 'cover.per_year' : 'cover.per_month')}
              </dd>
              <dd className="summary__terms">
                <ClaimTerms product={product} copy={copy} />
              </dd>
            </div>
          ) : null;
        })}
        <div className="summary__row">
          <dt>{text(copy, 'review.total')}</dt>
          <dd>
            {yearly ? (
              <>
                {price(view.summary.annual)} {text(copy, 'cover.per_year')}
              </>
            ) : (
              <>
                {price(view.summary.monthly)} {text(copy, 'cover.per_month')} · {price(view.summary.annual)} {text(copy, 'cover.per_year')}
              </>
            )}
          </dd>
        </div>
      </dl>
    </details>
  );
}
