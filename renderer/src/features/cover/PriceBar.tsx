/**
 * The cover select page's sticky price bar (journey.md §2 Cover select): the chosen level's
 * monthly and yearly price, Back to the previous pet, Next pet or Continue; Continue waits until
 * the benefits block has been in view (journey.md §4), and says so.
 */
import { text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { Product } from '@/shared/types';
import './cover.css';

export function PriceBar({
  barRef,
  copy,
  petName,
  chosen,
  busy,
  requoting,
  previousPet,
  nextPet,
  canContinue,
  seenBenefits,
  onBack,
  onNext,
  onReadBenefits,
}: {
  barRef: React.RefObject<HTMLDivElement | null>;
  copy: Record<string, string>;
  petName: string;
  chosen: Product | undefined;
  busy: boolean;
  requoting: boolean;
  /** The previous pet's name, where there is one to go back to. */
  previousPet: string | null;
  /** The next pet's name; null on the last pet, where the button continues. */
  nextPet: string | null;
  canContinue: boolean;
  seenBenefits: boolean;
  onBack: () => void;
  onNext: () => void;
  onReadBenefits: () => void;
}) {
  const { price } = useMoney();
  return (
    <div className="price-bar" ref={barRef} role="region" aria-label={text(copy, 'cover.price_bar.label', { petName })}>
      <div className="price-bar__inner">
        <p className="price-bar__price" aria-live="polite">
          {chosen && !requoting ? (
            <>
              <span className="price-bar__monthly">
                <strong>{price(chosen.RecurringMonthly)}</strong> {text(copy, 'cover.per_month')}
              </span>
              <span className="price-bar__annual">
                {price(chosen.AnnualPremium)} {text(copy, 'cover.per_year')}
              </span>
            </>
          ) : requoting ? (
            <span className="skeleton" aria-label={text(copy, 'cover.loading')} />
          ) : (
            <span>{text(copy, 'cover.choose_level_hint')}</span>
          )}
        </p>
        <div className="price-bar__actions">
          {previousPet !== null && (
            <button type="button" className="button button--secondary" disabled={busy || requoting} onClick={onBack}>
              {text(copy, 'cover.back_pet', { petName: previousPet })}
            </button>
          )}
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
