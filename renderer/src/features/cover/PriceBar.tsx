/**
 * The cover select page's price bar (journey.md §2 Cover select): the cover and level it prices
 * by name, the chosen level's monthly and yearly price, with more than one pet the household's
 * monthly total once every pet has a cover chosen, and Next pet or Continue; Continue waits until the benefits block has been in
 * view (journey.md §4), and says so. It sticks to the foot of the window only where the window
 * is tall enough to spare it (cover.css); Back to the previous pet is on the page, not in it.
 */
import { coverTypeName, text } from '@/shared/copy';
import { fromPence, toPence, useMoney } from '@/shared/money';
import type { Product } from '@/shared/types';
import '@/features/products/cover.css';

/** Every pet's chosen product, in the pets' order (undefined: not chosen yet), with their names. */
export interface Household {
  chosen: Array<Product | undefined>;
  names: string[];
}

export function PriceBar({
  barRef,
  copy,
  petName,
  chosen,
  household,
  busy,
  requoting,
  nextPet,
  canContinue,
  seenBenefits,
  onNext,
  onReadBenefits,
}: {
  barRef: React.RefObject<HTMLDivElement | null>;
  copy: Record<string, string>;
  petName: string;
  chosen: Product | undefined;
  household: Household;
  busy: boolean;
  requoting: boolean;
  /** The next pet's name; null on the last pet, where the button continues. */
  nextPet: string | null;
  canContinue: boolean;
  seenBenefits: boolean;
  onNext: () => void;
  onReadBenefits: () => void;
}) {
  const { price, amount } = useMoney();
  const several = household.chosen.length > 1;
  const waiting = household.names.filter((_, i) => !household.chosen[i]);
  // The household's total is the sum of the prices the server gave each pet's chosen cover, as
  // the review's total is (owner-payment.md §4 Prices): added up here, never priced.
  const total = household.chosen.reduce((sum, p) => sum + (p ? toPence(p.RecurringMonthly) : 0), 0);
  return (
    <div className="price-bar" ref={barRef} role="region" aria-label={text(copy, 'cover.price_bar.label', { petName })}>
      <div className="price-bar__inner">
        <div className="price-bar__price" aria-live="polite">
          {chosen && !requoting ? (
            <>
              <p className="price-bar__names">
                {text(copy, 'cover.price_bar.names', { cover: coverTypeName(copy, chosen.Gid), limit: amount(String(chosen.LimitVal)) })}
              </p>
              <p className="price-bar__amounts">
                <span className="price-bar__monthly">
                  <strong>{price(chosen.RecurringMonthly)}</strong> {text(copy, 'cover.per_month')}
                </span>{' '}
                <span className="price-bar__annual">
                  {price(chosen.AnnualPremium)} {text(copy, 'cover.per_year')}
                </span>
              </p>
              {several && waiting.length === 0 && (
                <p className="price-bar__household">
                  {text(copy, 'cover.price_bar.household', { count: String(household.chosen.length), monthly: price(fromPence(total)) })}
                </p>
              )}
            </>
          ) : requoting ? (
            <span className="skeleton" aria-label={text(copy, 'cover.loading')} />
          ) : (
            <p className="price-bar__names">{text(copy, 'cover.choose_level_hint')}</p>
          )}
        </div>
        <div className="price-bar__actions">
          <button
            type="button"
            className="button"
            disabled={busy || requoting || !canContinue || !seenBenefits}
            aria-describedby={canContinue && !seenBenefits ? 'read-benefits' : undefined}
            onClick={onNext}
          >
            {busy ? text(copy, 'button.saving') : nextPet === null ? text(copy, 'cover.continue') : text(copy, 'cover.next_pet', { petName: nextPet })}
          </button>
        </div>
        {canContinue && !seenBenefits && (
          // journey.md §4: Continue waits until the benefits block has been in view; this
          // says so, and takes the customer there.
          <button type="button" id="read-benefits" className="link-button price-bar__hint" onClick={onReadBenefits}>
            {text(copy, 'cover.read_benefits')}
          </button>
        )}
      </div>
    </div>
  );
}
