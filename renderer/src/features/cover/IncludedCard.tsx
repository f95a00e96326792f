/**
 * "What's included?" (journey.md §2 Cover select): the chosen level's benefits shown on the page,
 * and the link to the whole benefits table. Continue waits until it has been in view
 * (journey.md §4), so the page keeps a ref to it and to its heading.
 */
import { text } from '@/shared/copy';
import type { Product } from '@/shared/types';
import { termValue } from '@/features/products/cover';
import '@/features/products/cover.css';

export function IncludedCard({
  product,
  copy,
  sectionRef,
  headingRef,
  onBenefits,
}: {
  product: Product;
  copy: Record<string, string>;
  sectionRef: React.RefObject<HTMLElement | null>;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  onBenefits: () => void;
}) {
  return (
    <section ref={sectionRef} className="card included" aria-labelledby="included-heading">
      <h2 id="included-heading" className="pet__heading" ref={headingRef} tabIndex={-1}>
        {text(copy, 'cover.included.heading')}
      </h2>
      <ul className="included__list">
        {product.PolicyTerms.filter((t) => t.show).map((t) => (
          <li key={t.desc}>
            <span>{text(copy, t.desc)}</span> <strong>{termValue(copy, t)}</strong>
          </li>
        ))}
      </ul>
      <button type="button" className="link-button" onClick={onBenefits}>
        {text(copy, 'cover.included.link')}
      </button>
    </section>
  );
}
