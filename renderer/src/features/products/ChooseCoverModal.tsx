/**
 * The choose-cover modal on review (journey.md §2 Modals "choose cover", Cover select "radio
 * list in a modal", "Save and close"): one pet's cover type and level as radio lists with each
 * level's monthly price; saved through the cover call, which prices the quote again.
 */
import { useState } from 'react';

import { Modal } from '@/features/shell/Modal';
import { text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { Product, ViewData } from '@/shared/types';
import { type Group, defaultProduct, groupsOf, inGroup, productsOf } from './cover';
import './cover.css';

/** Every pet's cover as the cover question set takes it, with one pet's product replaced. */
export function coverAnswers(view: ViewData, index: number, code: string): Record<string, unknown> {
  return {
    pets: view.pets.map((pet, i) => {
      const product = pet.product as Product | undefined;
      const out: Record<string, unknown> = {};
      const chosen = i === index ? code : product?.Code;
      if (chosen) out.product = { Code: chosen };
      if (pet.set_excess !== undefined) out.set_excess = pet.set_excess;
      if (pet.set_coins !== undefined) out.set_coins = pet.set_coins;
      return out;
    }),
  };
}

export function ChooseCoverModal({
  view,
  copy,
  index,
  busy,
  onSave,
  onCancel,
}: {
  view: ViewData;
  copy: Record<string, string>;
  index: number;
  busy: boolean;
  onSave: (code: string) => void;
  onCancel: () => void;
}) {
  const { amount, price } = useMoney();
  const mine = productsOf(view.products, index + 1);
  const stored = (view.pets[index]?.product as Product | undefined)?.Code ?? null;
  const [group, setGroup] = useState<Group | null>(mine.find((p) => p.Code === stored)?.Gid ?? groupsOf(mine)[0] ?? null);
  const [code, setCode] = useState<string | null>(stored);
  const levels = inGroup(mine, group);
  const name = String(view.pets[index]?.pet_name ?? '');
  const [error, setError] = useState(false);

  function chooseGroup(g: Group) {
    setGroup(g);
    // journey.md §4: changing the cover type clears the chosen level; the default is shown.
    setCode(defaultProduct(inGroup(mine, g), null)?.Code ?? null);
  }

  return (
    <Modal titleId="choose-cover-title" title={text(copy, 'cover.modal.title', { petName: name })} onCancel={onCancel}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!code || !levels.some((p) => p.Code === code)) {
            setError(true);
            return;
          }
          onSave(code);
        }}
      >
        {groupsOf(mine).length > 1 && (
          <fieldset className="field choice">
            <legend className="field__label">{text(copy, 'cover.tabs.type')}</legend>
            <div className="choice__options">
              {groupsOf(mine).map((g) => (
                <div className="choice__option choice__option--block" key={g}>
                  <input type="radio" id={`modal-group-${g}`} name="modal-group" checked={group === g} onChange={() => chooseGroup(g)} />
                  <label htmlFor={`modal-group-${g}`}>{text(copy, `cover.type.${g.toLowerCase()}`)}</label>
                </div>
              ))}
            </div>
          </fieldset>
        )}
        <fieldset className={`field choice${error ? ' field--error' : ''}`} data-field={`pets[${index}].product.Code`}>
          <legend className="field__label">{text(copy, 'cover.tabs.level')}</legend>
          {error && (
            <p className="field__error" role="alert">
              {text(copy, 'cover.no_product')}
            </p>
          )}
          <div className="choice__options">
            {levels.map((p) => (
              <div className="choice__option choice__option--block" key={p.Code}>
                <input type="radio" id={`modal-level-${p.Code}`} name="modal-level" checked={code === p.Code} onChange={() => setCode(p.Code)} />
                <label htmlFor={`modal-level-${p.Code}`}>
                  {text(copy, 'cover.modal.level', { limit: amount(String(p.LimitVal)), price: price(p.RecurringMonthly) })}
                </label>
              </div>
            ))}
          </div>
        </fieldset>
        <div className="dialog__actions">
          <button type="submit" className="button" disabled={busy}>
            {busy ? text(copy, 'button.saving') : text(copy, 'button.save_close')}
          </button>
          <button type="button" className="button button--secondary" onClick={onCancel}>
            {text(copy, 'button.cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
