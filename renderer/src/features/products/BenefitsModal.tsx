/**
 * The benefits table modal (journey.md §2): a tab per vet fee limit, as chips that wrap; its
 * Close in a header that stays in view however long the table.
 */
import { useRef, useState } from 'react';

import { DocumentLinks } from '@/features/shell/DocumentLinks';
import { Modal } from '@/features/shell/Modal';
import { coverTypeName, text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { PetDocuments, Product } from '@/shared/types';
import { termValue } from './cover';
import './cover.css';

export function BenefitsModal({
  products,
  copy,
  chosen,
  documents,
  onClose,
}: {
  products: Product[];
  copy: Record<string, string>;
  chosen: string | null;
  documents: PetDocuments | undefined;
  onClose: () => void;
}) {
  const { amount } = useMoney();
  const [index, setIndex] = useState(() => Math.max(0, products.findIndex((p) => p.Code === chosen)));
  const p = products[index] ?? products[0];
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  if (!p) return null;
  return (
    <Modal titleId="benefits-title" title={text(copy, 'cover.benefits.heading')} onCancel={onClose} closeLabel={text(copy, 'button.close')}>
      <div role="tablist" className="tabs tabs--small tabs--chips" aria-label={text(copy, 'cover.benefits.heading')}>
        {products.map((x, i) => (
          <button
            key={x.Code}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`benefits-tab-${x.Code}`}
            aria-selected={i === index}
            aria-controls="benefits-panel"
            tabIndex={i === index ? 0 : -1}
            className={`tabs__tab${i === index ? ' tabs__tab--current' : ''}`}
            onClick={() => setIndex(i)}
            onKeyDown={(e) => {
              const to = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : null;
              if (to === null) return;
              e.preventDefault();
              const j = (to + products.length) % products.length;
              setIndex(j);
              refs.current[j]?.focus();
            }}
          >
            {coverTypeName(copy, x.Gid)} {amount(String(x.LimitVal))}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="benefits-panel" aria-labelledby={`benefits-tab-${p.Code}`} tabIndex={0}>
        <table className="benefits">
          <caption className="visually-hidden">
            {coverTypeName(copy, p.Gid)} {amount(String(p.LimitVal))}
          </caption>
          <tbody>
            {p.PolicyTerms.map((t) => (
              <tr key={t.desc}>
                <th scope="row">
                  {text(copy, t.desc)}
                  <span className="benefits__tip">{text(copy, t.tt)}</span>
                </th>
                <td>{termValue(copy, t)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {(documents?.by_group[p.Gid] ?? []).length > 0 && (
        <>
          <h3 className="documents__pet">{text(copy, 'cover.benefits.documents')}</h3>
          <DocumentLinks documents={documents?.by_group[p.Gid] ?? []} copy={copy} suffix={coverTypeName(copy, p.Gid)} />
        </>
      )}
    </Modal>
  );
}
