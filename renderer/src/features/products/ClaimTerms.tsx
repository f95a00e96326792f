/**
 * What a price commits the customer to when they claim: the set excess, the claim
 * contribution the rate table preselects (journey.md §4: "Default claim contribution of 10% is
 * added to the quote"), and the claim example that goes with them, beside every price.
 */
import { text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { Product } from '@/shared/types';
import './cover.css';

export function ClaimTerms({ product, copy, id }: { product: Product; copy: Record<string, string>; id?: string }) {
  const { amount } = useMoney();
  const example = product.ClaimExample;
  if (!example) return null;
  const coins = Number(product.coins);
  return (
    <p className="claim-terms" id={id}>
      {text(copy, coins > 0 ? 'cover.claim_terms' : 'cover.claim_terms.no_coins', {
        excess: amount(product.Excess),
        percent: product.coins,
        bill: amount(example.Bill),
        customer: amount(example.Customer),
        insurer: amount(example.Insurer),
      })}
    </p>
  );
}
