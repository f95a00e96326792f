/**
 * The demands-and-needs statement for what the customer chose (the Insurance Distribution
 * Directive; FCA ICOBS 5.2.2: before the contract is concluded, a statement of the customer's
 * demands and needs, and on a non-advised sale that no personal recommendation was given).
 * One sentence per pet with a chosen product, from the product the review shows.
 */
import { coverTypeName, text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { Product, ViewData } from '@/shared/types';

export function DemandsNeeds({ view, copy }: { view: ViewData; copy: Record<string, string> }) {
  const { amount } = useMoney();
  const chosen = view.pets.flatMap((pet) => {
    const product = pet.product as Product | undefined;
    return product?.Gid ? [{ name: String(pet.pet_name ?? ''), product }] : [];
  });
  if (chosen.length === 0) return null;
  return (
    <section className="card" aria-labelledby="review-demands-heading">
      <h2 id="review-demands-heading" className="pet__heading">
        {text(copy, 'demands_needs.heading')}
      </h2>
      {chosen.map(({ name, product }) => (
        <p key={name}>
          {text(copy, 'demands_needs.pet', {
            petName: name,
            cover: coverTypeName(copy, product.Gid),
            limit: amount(String(product.LimitVal)),
            excess: amount(product.Excess),
          })}
        </p>
      ))}
      <p>{text(copy, 'demands_needs.no_advice')}</p>
    </section>
  );
}
