/**
 * One pet on the review page (journey.md §2 Review): its price; its answers and cover to check,
 * each with its Change; the claim contribution to choose where there is more than one,
 * what its answers warn of, the pre-existing conditions and date of birth prompts, and the ways
 * to change or remove it; for a dog on the brand that has one, the Best Buy banner.
 */
import { answerWarnings } from '@/features/form/EditDialog';
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import type { EditRequest } from '@/features/journey/journey-machine';
import { ClaimTerms } from '@/features/products/ClaimTerms';
import { BestBuyBanner } from '@/features/shell/BestBuyBanner';
import { coverTypeName, text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { Product, ViewData } from '@/shared/types';
import { CheckAnswers, usePetAnswers } from './CheckAnswers';
import { type ReviewModal, needsDobConfirmation, petEdit, preExistingReferred } from './review';
import './review.css';

export function ReviewPetCard({
  view,
  copy,
  busy,
  pet,
  index: i,
  onEdit,
  onOpen,
  onModal,
  onRemove,
}: {
  view: ViewData;
  copy: Record<string, string>;
  busy: boolean;
  pet: Record<string, unknown>;
  index: number;
  onEdit: (request: EditRequest) => void;
  onOpen: (path: string) => void;
  onModal: (modal: ReviewModal) => void;
  onRemove: (index: number) => void;
}) {
  const { amount, price } = useMoney();
  const pets = view.pets;
  const base = view.step.path.replace(/\/review$/, '');
  const productsOf = (n: number) => view.products.filter((p) => p.petid === n + 1);
  const product = pet.product as Product | undefined;
  const name = String(pet.pet_name ?? '');
  const id = `review-pet-${i}`;
  const referred = preExistingReferred(view, i);
  const detailsAdded = typeof pet.vet_name === 'string' || pet.provide_vet_later === true;
  const coins = product ? product.excess_options.list.map((o) => o.coins) : [];
  const answers = usePetAnswers(petEdit(view), pet, copy);
  const canEditPet = Boolean(petEdit(view));
  return (
    <section className="card review-pet" aria-labelledby={id}>
      <h2 id={id} className="pet__heading">
        {name}
      </h2>
      {product ? (
        <>
          <p className="review-pet__price">
            <strong>{price(product.RecurringMonthly)}</strong> {text(copy, 'cover.per_month')} · {price(product.AnnualPremium)} {text(copy, 'cover.per_year')}
          </p>
          <CheckAnswers
            copy={copy}
            rows={[
              ...answers.map((a) => ({
                ...a,
                onChange: canEditPet ? () => onModal({ kind: 'pet', pet: i, field: `pets[${i}].${a.key}` }) : undefined,
                changeName: text(copy, 'review.answer.change_hidden', { what: a.label.toLowerCase(), petName: name }),
              })),
              {
                key: 'cover',
                label: text(copy, 'review.pet.cover_type'),
                value: text(copy, 'review.pet.cover', { type: coverTypeName(copy, product.Gid), limit: amount(String(product.LimitVal)) }),
                onChange: productsOf(i).length > 1 && view.edits.cover ? () => onModal({ kind: 'cover', pet: i }) : undefined,
                changeName: text(copy, 'review.answer.change_hidden', { what: text(copy, 'review.pet.cover_type').toLowerCase(), petName: name }),
              },
              { key: 'excess', label: text(copy, 'review.pet.excess'), value: amount(product.Excess) },
            ]}
          />
          <BestBuyBanner view={view} pets={[pet]} copy={copy} />
          {coins.length > 1 && (
            <fieldset className="field choice coins">
              <legend className="field__label">{text(copy, 'review.coins.heading', { petName: name })}</legend>
              <div className="choice__options choice__options--inline">
                {coins.map((c) => (
                  <div className="choice__option" key={c}>
                    <input
                      type="radio"
                      id={`review-coins-${i}-${c}`}
                      name={`review-coins-${i}`}
                      checked={product.coins === c}
                      disabled={busy}
                      onChange={() => onEdit({ call: '/api/changecoins', answers: { pet_id: i + 1, co_insurance: Number(c) }, notice: 'review.updated' })}
                    />
                    <label htmlFor={`review-coins-${i}-${c}`}>{c === '0' ? text(copy, 'cover.excess.coins.none') : text(copy, 'cover.excess.coins.option', { percent: c })}</label>
                  </div>
                ))}
              </div>
            </fieldset>
          )}
          <ClaimTerms product={product} copy={copy} />
          {product.ClaimExample.Warnings.length > 0 && (
            <div className="panel panel--warning">
              {product.ClaimExample.Warnings.map((w) => (
                <p key={w}>{text(copy, w)}</p>
              ))}
            </div>
          )}
        </>
      ) : (
        <p className="panel panel--warning">{text(copy, 'review.pet.no_cover')}</p>
      )}
      {view.edits.assumptions && answerWarnings(view.edits.assumptions, pet, view.channel).length > 0 && (
        <div className="panel panel--warning review-pet__warnings">
          {answerWarnings(view.edits.assumptions, pet, view.channel).map((w) => (
            <p key={w}>{text(copy, w)}</p>
          ))}
        </div>
      )}
      {referred && view.edits.pre_existing && (
        <div className={`panel ${detailsAdded ? 'panel--info' : 'panel--warning'}`}>
          <p>{text(copy, detailsAdded ? 'pre_existing.added' : 'pre_existing.prompt', { petName: name })}</p>
          <button type="button" className="link-button" onClick={() => onModal({ kind: 'pre_existing', pet: i })}>
            {text(copy, detailsAdded ? 'pre_existing.edit' : 'pre_existing.add')}
            <span className="visually-hidden"> – {name}</span>
          </button>
        </div>
      )}
      {needsDobConfirmation(view, i) && view.edits.dob_confirmation && (
        <DobConfirmation view={view} copy={copy} busy={busy} pet={pet} index={i} onEdit={onEdit} onOpen={onOpen} />
      )}
      <div className="review-pet__actions">
        {!canEditPet && (
          // Without the edit-pet modal, the pet page.
          <button type="button" className="link-button" onClick={() => onOpen(`${base}`)}>
            {text(copy, 'review.pet.edit', { petName: name })}
          </button>
        )}
        {view.channel === 'aggregator' && product && productsOf(i).length > 0 && (
          <button type="button" className="link-button" onClick={() => onModal({ kind: 'benefits', pet: i })}>
            {text(copy, 'review.pet.compare_benefits')}
            <span className="visually-hidden"> – {name}</span>
          </button>
        )}
        {pets.length > 1 && (
          <button type="button" className="link-button link-button--danger" onClick={() => onRemove(i)}>
            {text(copy, 'review.pet.remove', { petName: name })}
          </button>
        )}
      </div>
    </section>
  );
}

/**
 * journey.md §4 Pet details: a pet under 12 weeks old whose date of birth is unconfirmed (no
 * saved_dob) is asked to confirm it (aggregator journey), or to go back and change it.
 */
function DobConfirmation({
  view,
  copy,
  busy,
  pet,
  index: i,
  onEdit,
  onOpen,
}: {
  view: ViewData;
  copy: Record<string, string>;
  busy: boolean;
  pet: Record<string, unknown>;
  index: number;
  onEdit: (request: EditRequest) => void;
  onOpen: (path: string) => void;
}) {
  const pets = view.pets;
  const base = view.step.path.replace(/\/review$/, '');
  const name = String(pet.pet_name ?? '');
  const id = `review-pet-${i}`;
  return (
    <div className="panel panel--warning" role="group" aria-labelledby={`${id}-dob`}>
      <p id={`${id}-dob`}>
        <strong>{text(copy, 'review.dob_confirm.title', { petName: name })}</strong>
      </p>
      <p>{text(copy, 'review.dob_confirm.body', { petName: name, date: ukDate(String(pet.pet_date_of_birth)) })}</p>
      <div className="review-pet__actions">
        <button
          type="button"
          className="button button--secondary"
          disabled={busy}
          onClick={() =>
            onEdit({
              form: view.edits.dob_confirmation?.id ?? '',
              call: view.edits.dob_confirmation?.submit ?? '',
              answers: { pets: pets.map((p, j) => (j === i ? { saved_dob: p.pet_date_of_birth } : typeof p.saved_dob === 'string' ? { saved_dob: p.saved_dob } : {})) },
              notice: 'review.dob_confirm.done',
            })
          }
        >
          {text(copy, 'review.dob_confirm.yes')}
          <span className="visually-hidden"> – {name}</span>
        </button>
        <a
          className="link-button"
          href={`${base}/`}
          onClick={(e) => {
            e.preventDefault();
            onOpen(`${base}`);
          }}
        >
          {text(copy, 'review.dob_confirm.no')}
          <span className="visually-hidden"> – {name}</span>
        </a>
      </div>
    </div>
  );
}
