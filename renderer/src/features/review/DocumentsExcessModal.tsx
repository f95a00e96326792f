/** The review page's documents and excess modal (journey.md §2 Review). */
import { DocumentLinks } from '@/features/shell/DocumentLinks';
import { Modal as Dialog } from '@/features/shell/Modal';
import { text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { Product, ViewData } from '@/shared/types';
import './review.css';

export function DocumentsExcessModal({ view, copy, onClose }: { view: ViewData; copy: Record<string, string>; onClose: () => void }) {
  const { amount } = useMoney();
  return (
    <Dialog titleId="documents-excess-title" title={text(copy, 'review.documents.excess_link')} onCancel={onClose}>
      {view.pets.map((pet, i) => {
        const product = pet.product as Product | undefined;
        const docs = view.documents.find((d) => d.petid === i + 1);
        if (!product || !docs) return null;
        const name = String(pet.pet_name ?? '');
        return (
          <section key={String(pet.original_id ?? i)} aria-labelledby={`excess-${i}`} className="excess-explained">
            <h3 id={`excess-${i}`} className="documents__pet">
              {name}
            </h3>
            <p>{text(copy, 'excess.set', { excess: amount(product.Excess) })}</p>
            {product.coins !== '0' && <p>{text(copy, 'excess.coins', { percent: product.coins })}</p>}
            {docs.older_pet_share_percent && (
              <p>{text(copy, 'excess.older', { age: String(docs.older_pet_age), share: docs.older_pet_share_percent })}</p>
            )}
            <DocumentLinks documents={docs.items} copy={copy} suffix={name} />
          </section>
        );
      })}
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onClose}>
          {text(copy, 'button.close')}
        </button>
      </div>
    </Dialog>
  );
}
