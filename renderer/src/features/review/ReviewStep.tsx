/**
 * The review page (journey.md §2 Review; owner-payment.md §2 Review quote header, §4 Prices):
 * the header with up to four pet icons, the quote reference, cover start, valid until and, with
 * more than one pet, the totals; a block per pet with its prices and cover, the claim
 * contribution chooser (re-priced at once through /api/changecoins), edit, change cover and
 * remove; the cover start date and the owner's details, each with its modal (the owner's in
 * three forms: address, full details, add a phone number); pre-existing conditions; the
 * discounts; the discount code block; add another pet; Continue.
 */
import { useState } from 'react';

import { CodesPanel } from '@/features/codes/CodesPanel';
import { ChooseCoverModal, coverAnswers } from '@/features/cover/ChooseCoverModal';
import { BenefitsModal } from '@/features/cover/ChoosePolicyStep';
import { EditDialog, answerWarnings, onlyOwnerFields } from '@/features/form/EditDialog';
import { RemovePetDialog } from '@/features/form/RemovePetDialog';
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import type { EditRequest, Notice } from '@/features/journey/journey-machine';
import { DocumentLinks } from '@/features/shell/DocumentLinks';
import { Modal as Dialog } from '@/features/shell/Modal';
import { ClaimTerms } from '@/features/cover/ClaimTerms';
import { BestBuyBanner } from '@/features/shell/BestBuyBanner';
import { coverTypeName, ownerName, text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { FieldMessage, Product, ViewData } from '@/shared/types';
import './review.css';

type OwnerModal = 'address' | 'full' | 'phone' | 'marketing';
type Modal =
  | { kind: 'owner'; variant: OwnerModal }
  | { kind: 'start_date' }
  | { kind: 'pre_existing'; pet: number }
  | { kind: 'cover'; pet: number }
  | { kind: 'benefits'; pet: number }
  | { kind: 'reminder' }
  | { kind: 'excess' }
  | null;

const OWNER_TITLES: Record<OwnerModal, string> = {
  full: 'review.details.edit',
  address: 'review.details.edit_address',
  phone: 'review.details.add_phone',
  marketing: 'review.marketing.change',
};

/** The owner fields each of the review's owner modals shows (issue 4: address-only and full). */
const OWNER_FIELDS: Record<OwnerModal, string[]> = {
  address: ['email_address', 'customer_address_line_1'],
  full: ['customer_title', 'customer_first_name', 'customer_last_name', 'customer_date_of_birth', 'email_address', 'customer_contact_number', 'customer_address_line_1'],
  phone: ['customer_contact_number'],
  marketing: ['marketing_preferences'],
};

/** A decorative outline of the pet's species; the pet's name is beside it. */
/** Days from one YYYY-MM-DD date to another. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * journey.md §4: on the aggregator journey, a pet under 12 weeks old (today, UK time) whose date
 * of birth is not confirmed (no saved_dob, or one for another date) is asked about.
 */
export function needsDobConfirmation(view: ViewData, pet: Record<string, unknown>): boolean {
  const dob = pet.pet_date_of_birth;
  if (view.channel !== 'aggregator' || typeof dob !== 'string') return false;
  return daysBetween(dob, view.start_date.today) < 84 && pet.saved_dob !== dob;
}

export function PetIcon({ species }: { species: string }) {
  // Told apart by their outline (issue 24): a dog's ears hang and it has a muzzle, a cat's ears
  // are pointed and it has whiskers, a rabbit's ears are long and upright.
  const paths: Record<string, string> = {
    dog: 'M15 22c0-6 4-10 9-10s9 4 9 10v6c0 7-4 12-9 12s-9-5-9-12ZM15 19c-4 0-7 4-7 11 0 3 2 5 4 3l3-4M33 19c4 0 7 4 7 11 0 3-2 5-4 3l-3-4M20 24h.01M28 24h.01M22 30h4l-2 2.5ZM24 32.5v2M21 35.5c1.5 1 4.5 1 6 0',
    cat: 'M12 30c0-7 5-12 12-12s12 5 12 12-5 10-12 10-12-3-12-10ZM13.5 24 12 8l9 7.5M34.5 24 36 8l-9 7.5M19 28h.01M29 28h.01M23 32h2l-1 1.2ZM6 31l9 1M6 35.5l9-1.5M42 31l-9 1M42 35.5l-9-1.5',
    rabbit: 'M14 32c0-7 4-12 10-12s10 5 10 12-4 9-10 9-10-2-10-9Zm6-12-3-14 6 12M28 20l3-14-6 12M21 30h.01M27 30h.01M23 35h2',
  };
  return (
    <svg className="pet-icon" viewBox="0 0 48 48" width="40" height="40" aria-hidden="true" focusable="false">
      <path d={paths[species] ?? paths.dog} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

function marketingSummary(copy: Record<string, string>, owner: Record<string, unknown>): string {
  const prefs = (owner.marketing_preferences ?? {}) as Record<string, unknown>;
  const on = ['email', 'post', 'sms', 'phone'].filter((k) => prefs[`optin_${k}`] === true).map((k) => text(copy, `owner.marketing.${k}`));
  return on.length > 0 ? text(copy, 'review.marketing.on', { ways: on.join(', ') }) : text(copy, 'review.marketing.none');
}

function ownerAddress(owner: Record<string, unknown>): string {
  return [owner.customer_address_line_1, owner.customer_address_line_2, owner.customer_town, owner.customer_county, owner.customer_postcode]
    .filter((x) => typeof x === 'string' && x.trim())
    .join(', ');
}

export function ReviewStep({
  view,
  copy,
  busy,
  editErrors,
  editSubmissions,
  onEdit,
  onRemovePet,
  onOpen,
  onContinue,
  notify,
  onRefresh,
}: {
  view: ViewData;
  copy: Record<string, string>;
  busy: boolean;
  editErrors: readonly FieldMessage[];
  editSubmissions: number;
  onEdit: (request: EditRequest) => void;
  onRemovePet: (id: number) => void;
  onOpen: (path: string) => void;
  /** Continue: on to the next page, as the customer's own step forward. */
  onContinue: (path: string) => void;
  notify: (notice: Notice) => void;
  onRefresh: (notice?: Notice) => void;
}) {
  const { amount, price } = useMoney();
  const [modal, setModal] = useState<Modal>(null);
  const [removing, setRemoving] = useState<number | null>(null);
  const [annual, setAnnual] = useState(false);
  const pets = view.pets;
  const owner = view.owner;
  const summary = view.summary;
  const base = view.step.path.replace(/\/review$/, '');
  const productsOf = (i: number) => view.products.filter((p) => p.petid === i + 1);
  const discounts = annual ? summary.discounts_annual : summary.discounts_monthly;

  function saveOwner(answers: Record<string, unknown>) {
    const before = view.owner;
    const after = (answers.owner ?? {}) as Record<string, unknown>;
    const moved = ['customer_postcode', 'customer_address_line_1', 'houseNumberName'].some((k) => (before[k] ?? '') !== (after[k] ?? ''));
    // owner-payment.md §4 Owner save, §8: a changed address re-quotes; once prices exist the
    // information toast says the price may have changed.
    onEdit(
      moved && view.products.length > 0
        ? { form: 'your_details', call: view.edits.your_details?.submit ?? '', answers, notice: 'review.address_changed', noticeKind: 'info' }
        : { form: 'your_details', call: view.edits.your_details?.submit ?? '', answers, notice: 'owner.saved' },
    );
  }

  return (
    <div className="review">
      <section className="card review__header" aria-labelledby="review-quote-heading">
        <h2 id="review-quote-heading" className="visually-hidden">
          {text(copy, 'review.heading')}
        </h2>
        <ul className="review__pets">
          {pets.slice(0, 4).map((p, i) => (
            <li key={String(p.original_id ?? i)}>
              <PetIcon species={String(p.pet_type ?? '')} />
              <span>{String(p.pet_name ?? '')}</span>
            </li>
          ))}
        </ul>
        <dl className="quote-facts">
          <div>
            <dt>{text(copy, 'cover.quote_reference')}</dt>
            <dd>{view.qidu}</dd>
          </div>
          <div>
            <dt>{text(copy, 'cover.starts')}</dt>
            <dd>{ukDate(view.start_date.chosen)}</dd>
          </div>
          {view.valid_until && (
            <div>
              <dt>{text(copy, 'cover.valid_until')}</dt>
              <dd>{ukDate(view.valid_until)}</dd>
            </div>
          )}
          {pets.length > 1 && (
            <div className="quote-facts__total">
              <dt>{text(copy, 'review.total')}</dt>
              <dd>
                <strong>{price(summary.monthly)}</strong> {text(copy, 'cover.per_month')} · {price(summary.annual)} {text(copy, 'cover.per_year')}
              </dd>
            </div>
          )}
        </dl>
      </section>

      {pets.map((pet, i) => {
        const product = pet.product as Product | undefined;
        const name = String(pet.pet_name ?? '');
        const id = `review-pet-${i}`;
        const referred = pet.refer_code === 'RA008';
        const detailsAdded = typeof pet.vet_name === 'string' || pet.provide_vet_later === true;
        const coins = product ? product.excess_options.list.map((o) => o.coins) : [];
        return (
          <section className="card review-pet" aria-labelledby={id} key={String(pet.original_id ?? i)}>
            <div className="review-pet__top">
              <PetIcon species={String(pet.pet_type ?? '')} />
              <h2 id={id} className="pet__heading">
                {name}
              </h2>
              {product?.Rated && <span className="badge">{text(copy, 'cover.rated')}</span>}
            </div>
            <BestBuyBanner view={view} pets={[pet]} copy={copy} />
            {product ? (
              <>
                <p className="review-pet__price">
                  <strong>{price(product.RecurringMonthly)}</strong> {text(copy, 'cover.per_month')} · {price(product.AnnualPremium)} {text(copy, 'cover.per_year')}
                </p>
                <dl className="summary">
                  <div className="summary__row">
                    <dt>{text(copy, 'review.pet.cover_type')}</dt>
                    <dd>{text(copy, 'review.pet.cover', { type: coverTypeName(copy, product.Gid), limit: amount(String(product.LimitVal)) })}</dd>
                  </div>
                  <div className="summary__row">
                    <dt>{text(copy, 'review.pet.vet_fees')}</dt>
                    <dd>{amount(String(product.LimitVal))}</dd>
                  </div>
                  <div className="summary__row">
                    <dt>{text(copy, 'review.pet.excess')}</dt>
                    <dd>{amount(product.Excess)}</dd>
                  </div>
                  {product.coins !== '0' && (
                    <div className="summary__row">
                      <dt>{text(copy, 'review.pet.coins')}</dt>
                      <dd>{text(copy, 'cover.excess.coins.option', { percent: String(product.coins) })}</dd>
                    </div>
                  )}
                </dl>
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
                <button type="button" className="link-button" onClick={() => setModal({ kind: 'pre_existing', pet: i })}>
                  {text(copy, detailsAdded ? 'pre_existing.edit' : 'pre_existing.add')}
                  <span className="visually-hidden"> – {name}</span>
                </button>
              </div>
            )}
            {needsDobConfirmation(view, pet) && view.edits.dob_confirmation && (
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
                        form: 'dob_confirmation',
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
            )}
            <div className="review-pet__actions">
              <a
                className="link-button"
                href={`${base}/`}
                onClick={(e) => {
                  e.preventDefault();
                  onOpen(`${base}`);
                }}
              >
                {text(copy, 'review.pet.edit', { petName: name })}
              </a>
              {productsOf(i).length > 1 && view.edits.cover && (
                <button type="button" className="link-button" onClick={() => setModal({ kind: 'cover', pet: i })}>
                  {text(copy, 'review.pet.change_cover')}
                  <span className="visually-hidden"> – {name}</span>
                </button>
              )}
              {view.channel === 'aggregator' && product && productsOf(i).length > 0 && (
                <button type="button" className="link-button" onClick={() => setModal({ kind: 'benefits', pet: i })}>
                  {text(copy, 'review.pet.compare_benefits')}
                  <span className="visually-hidden"> – {name}</span>
                </button>
              )}
              {pets.length > 1 && (
                <button type="button" className="link-button link-button--danger" onClick={() => setRemoving(i)}>
                  {text(copy, 'review.pet.remove', { petName: name })}
                </button>
              )}
            </div>
          </section>
        );
      })}

      <section className="card" aria-labelledby="review-start-heading">
        <h2 id="review-start-heading" className="pet__heading">
          {text(copy, 'review.start.heading')}
        </h2>
        <p>{text(copy, 'start_date.current', { date: ukDate(view.start_date.chosen) })}</p>
        {view.edits.start_date && (
          <button type="button" className="button button--secondary" onClick={() => setModal({ kind: 'start_date' })}>
            {text(copy, 'review.start.change')}
          </button>
        )}
      </section>

      <section className="card" aria-labelledby="review-details-heading">
        <h2 id="review-details-heading" className="pet__heading">
          {text(copy, 'review.details.heading')}
        </h2>
        <dl className="summary">
          <div className="summary__row">
            <dt>{text(copy, 'review.details.name')}</dt>
            <dd>{ownerName(copy, owner)}</dd>
          </div>
          {typeof owner.customer_date_of_birth === 'string' && (
            <div className="summary__row">
              <dt>{text(copy, 'owner.dob.label')}</dt>
              <dd>{ukDate(owner.customer_date_of_birth)}</dd>
            </div>
          )}
          <div className="summary__row">
            <dt>{text(copy, 'owner.email.label')}</dt>
            <dd>{String(owner.email_address ?? '')}</dd>
          </div>
          {typeof owner.customer_contact_number === 'string' && owner.customer_contact_number && (
            <div className="summary__row">
              <dt>{text(copy, 'owner.phone.label')}</dt>
              <dd>{owner.customer_contact_number}</dd>
            </div>
          )}
          <div className="summary__row">
            <dt>{text(copy, 'review.details.address')}</dt>
            <dd>{ownerAddress(owner)}</dd>
          </div>
        </dl>
        {view.edits.your_details && (
          <div className="review-pet__actions">
            <button type="button" className="button button--secondary" onClick={() => setModal({ kind: 'owner', variant: 'full' })}>
              {text(copy, 'review.details.edit')}
            </button>
            <button type="button" className="link-button" onClick={() => setModal({ kind: 'owner', variant: 'address' })}>
              {text(copy, 'review.details.edit_address')}
            </button>
            {!owner.customer_contact_number && (
              <button type="button" className="link-button" onClick={() => setModal({ kind: 'owner', variant: 'phone' })}>
                {text(copy, 'review.details.add_phone')}
              </button>
            )}
          </div>
        )}
      </section>

      {view.edits.your_details && (
        <section className="card" aria-labelledby="review-marketing-heading">
          <h2 id="review-marketing-heading" className="pet__heading">
            {text(copy, 'review.marketing.heading')}
          </h2>
          <p>{marketingSummary(copy, owner)}</p>
          <button type="button" className="button button--secondary" onClick={() => setModal({ kind: 'owner', variant: 'marketing' })}>
            {text(copy, 'review.marketing.change')}
          </button>
        </section>
      )}

      {view.edits.quote_reminder && (
        <section className="card" aria-labelledby="review-reminder-heading">
          <h2 id="review-reminder-heading" className="pet__heading">
            {text(copy, 'review.reminder.heading')}
          </h2>
          <p>{text(copy, view.no_quote_chase_email ? 'review.reminder.off' : 'review.reminder.on')}</p>
          <button type="button" className="link-button" onClick={() => setModal({ kind: 'reminder' })}>
            {text(copy, 'review.reminder.change')}
          </button>
        </section>
      )}

      <section className="card" aria-labelledby="review-discounts-heading">
        <h2 id="review-discounts-heading" className="pet__heading">
          {text(copy, 'review.discounts.heading')}
        </h2>
        <fieldset className="field choice">
          <legend className="visually-hidden">{text(copy, 'review.discounts.view')}</legend>
          <div className="choice__options choice__options--inline">
            {[false, true].map((a) => (
              <div className="choice__option" key={String(a)}>
                <input type="radio" id={`discounts-${a ? 'annual' : 'monthly'}`} name="discounts-view" checked={annual === a} onChange={() => setAnnual(a)} />
                <label htmlFor={`discounts-${a ? 'annual' : 'monthly'}`}>{text(copy, a ? 'review.discounts.annual' : 'review.discounts.monthly')}</label>
              </div>
            ))}
          </div>
        </fieldset>
        {discounts.length > 0 ? (
          <dl className="summary">
            {discounts.map(([key, value]) => (
              <div className="summary__row" key={key}>
                <dt>{text(copy, key)}</dt>
                <dd>
                  −{price(value)} {text(copy, annual ? 'cover.per_year' : 'cover.per_month')}
                </dd>
              </div>
            ))}
          </dl>
        ) : (
          <p>{text(copy, 'review.discount.none')}</p>
        )}
        {summary.multipet_pending && <p className="hint">{text(copy, 'review.discount.multipet_pending')}</p>}
      </section>

      {view.documents.some((d) => d.items.length > 0) && (
        <section className="card" aria-labelledby="review-documents-heading">
          <h2 id="review-documents-heading" className="pet__heading">
            {text(copy, 'review.documents.heading')}
          </h2>
          <p>{text(copy, 'review.documents.intro')}</p>
          {view.documents.filter((d) => d.items.length > 0).map((d) => {
            const name = String(pets[d.petid - 1]?.pet_name ?? '');
            return (
              <div key={d.petid} className="documents">
                <h3 className="documents__pet">{name}</h3>
                <DocumentLinks documents={d.items} copy={copy} suffix={name} />
              </div>
            );
          })}
          <button type="button" className="link-button" onClick={() => setModal({ kind: 'excess' })}>
            {text(copy, 'review.documents.excess_link')}
          </button>
        </section>
      )}

      {(view.edits.promo_code || view.edits.referral_code) && (
        <CodesPanel
          view={view}
          copy={copy}
          busy={busy}
          editErrors={editErrors}
          editSubmissions={editSubmissions}
          onEdit={onEdit}
          notify={notify}
          onRefresh={onRefresh}
        />
      )}

      <section className="card" aria-labelledby="review-add-pet-heading">
        <h2 id="review-add-pet-heading" className="pet__heading">
          {text(copy, 'review.add_pet')}
        </h2>
        <p>{text(copy, 'review.add_pet.body')}</p>
        <a
          className="button button--secondary"
          href={base || '/'}
          onClick={(e) => {
            e.preventDefault();
            onOpen(base);
          }}
        >
          {text(copy, 'review.add_pet')}
        </a>
      </section>

      <div className="actions">
        <button type="button" className="button" disabled={busy || !summary.every_pet_chosen} onClick={() => onContinue(view.step.next ?? `${base}/assumptions`)}>
          {text(copy, 'review.continue')}
        </button>
      </div>

      {modal?.kind === 'owner' && view.edits.your_details && (
        <EditDialog
          questions={view.edits.your_details}
          ui={onlyOwnerFields(view.edits.your_details, OWNER_FIELDS[modal.variant])}
          title={text(copy, OWNER_TITLES[modal.variant])}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onNotice={notify}
          onCancel={() => setModal(null)}
          onSave={saveOwner}
        />
      )}
      {modal?.kind === 'start_date' && view.edits.start_date && (
        <EditDialog
          questions={{ ...view.edits.start_date, answers: { owner: { pet_policy_start_date: view.start_date.chosen } } }}
          title={text(copy, 'start_date.title')}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => setModal(null)}
          onSave={(a) => onEdit({ form: 'start_date', call: view.edits.start_date.submit ?? '', answers: a, notice: 'start_date.saved' })}
        />
      )}
      {modal?.kind === 'pre_existing' && view.edits.pre_existing && (
        <EditDialog
          questions={view.edits.pre_existing}
          title={text(copy, 'pre_existing.title', { petName: String(pets[modal.pet]?.pet_name ?? '') })}
          onlyPet={modal.pet}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => setModal(null)}
          onSave={(a) => onEdit({ form: 'pre_existing', call: view.edits.pre_existing.submit ?? '', answers: a, notice: 'pre_existing.saved' })}
        />
      )}
      {modal?.kind === 'cover' && view.edits.cover && (
        <ChooseCoverModal
          view={view}
          copy={copy}
          index={modal.pet}
          busy={busy}
          onCancel={() => setModal(null)}
          onSave={(code) => onEdit({ form: 'cover', call: view.edits.cover.submit ?? '', answers: coverAnswers(view, modal.pet, code), notice: 'review.updated' })}
        />
      )}
      {modal?.kind === 'benefits' && (
        <BenefitsModal
          products={productsOf(modal.pet).filter((p) => p.Gid === (pets[modal.pet]?.product as Product | undefined)?.Gid)}
          copy={copy}
          chosen={(pets[modal.pet]?.product as Product | undefined)?.Code ?? null}
          documents={view.documents.find((d) => d.petid === modal.pet + 1)}
          onClose={() => setModal(null)}
        />
      )}
      {modal?.kind === 'excess' && <DocumentsExcessModal view={view} copy={copy} onClose={() => setModal(null)} />}
      {modal?.kind === 'reminder' && view.edits.quote_reminder && (
        <EditDialog
          questions={view.edits.quote_reminder}
          title={text(copy, 'review.reminder.heading')}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => setModal(null)}
          onSave={(a) =>
            // owner-payment.md §7: /api/noquotechaseemail takes {csrf, noquotechaseemail}.
            onEdit({
              call: view.edits.quote_reminder.submit ?? '',
              answers: { noquotechaseemail: (a.owner as { no_quote_chase_email?: boolean } | undefined)?.no_quote_chase_email === true },
              notice: 'review.reminder.saved',
            })
          }
        />
      )}
      <RemovePetDialog
        name={removing === null ? null : String(pets[removing]?.pet_name ?? '')}
        copy={copy}
        onConfirm={() => {
          if (removing !== null) onRemovePet(removing + 1);
          setRemoving(null);
        }}
        onCancel={() => setRemoving(null)}
      />
    </div>
  );
}


/**
 * Documents and excess (journey.md §2 Review "documents-and-excess link", Modals "documents and
 * excess"): each pet's excess, claim contribution and older pet's share as its policy wording
 * sets them, with the documents to read.
 */
function DocumentsExcessModal({ view, copy, onClose }: { view: ViewData; copy: Record<string, string>; onClose: () => void }) {
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
