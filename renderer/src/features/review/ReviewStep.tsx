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
import { ChooseCoverModal, coverAnswers } from '@/features/products/ChooseCoverModal';
import { BenefitsModal } from '@/features/products/BenefitsModal';
import { EditDialog, onlyOwnerFields } from '@/features/form/EditDialog';
import { RemovePetDialog } from '@/features/form/RemovePetDialog';
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import type { EditRequest, Notice } from '@/features/journey/journey-machine';
import { DocumentLinks } from '@/features/shell/DocumentLinks';
import { addressMoved } from '@/shared/address';
import { text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { FieldMessage, Product, ViewData } from '@/shared/types';
import { DemandsNeeds } from './DemandsNeeds';
import { DocumentsExcessModal } from './DocumentsExcessModal';
import { EmailQuoteButton } from './EmailQuoteButton';
import { OWNER_FIELDS, OWNER_TITLES, type ReviewModal, petEdit } from './review';
import { PetIcon } from '@/features/products/PetIcon';
import { ReviewPetCard } from './ReviewPetCard';
import { ReviewReassurance } from './ReviewReassurance';
import { OwnerDetailsCard } from './OwnerDetailsCard';
import './review.css';

export function ReviewStep({
  view,
  copy,
  busy,
  editErrors,
  editSubmissions,
  onEdit,
  onRemovePet,
  onAddPet,
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
  /** journey.md §4 Add another pet: a fresh pet slot, then the pet details page. */
  onAddPet: () => void;
  onOpen: (path: string) => void;
  /** Continue: on to the next page, as the customer's own step forward. */
  onContinue: (path: string) => void;
  notify: (notice: Notice) => void;
  onRefresh: (notice?: Notice) => void;
}) {
  const { price } = useMoney();
  const [modal, setModal] = useState<ReviewModal>(null);
  const [removing, setRemoving] = useState<number | null>(null);
  const [annual, setAnnual] = useState(false);
  const pets = view.pets;
  const summary = view.summary;
  const base = view.step.path.replace(/\/review$/, '');
  const productsOf = (i: number) => view.products.filter((p) => p.petid === i + 1);
  const discounts = annual ? summary.discounts_annual : summary.discounts_monthly;

  function saveOwner(answers: Record<string, unknown>) {
    const moved = addressMoved(view.owner, (answers.owner ?? {}) as Record<string, unknown>);
    // owner-payment.md §4 Owner save, §8: a changed address re-quotes; once prices exist the
    // information toast says the price may have changed.
    onEdit(
      moved && view.products.length > 0
        ? { form: view.edits.your_details?.id ?? '', call: view.edits.your_details?.submit ?? '', answers, notice: 'review.address_changed', noticeKind: 'info' }
        : { form: view.edits.your_details?.id ?? '', call: view.edits.your_details?.submit ?? '', answers, notice: 'toast.details_updated' },
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
            <dd>
              {ukDate(view.start_date.chosen)}
              {view.edits.start_date && (
                <>
                  {' '}
                  <button type="button" className="link-button quote-facts__change" onClick={() => setModal({ kind: 'start_date' })}>
                    {text(copy, 'review.answer.change')}
                    <span className="visually-hidden"> {text(copy, 'review.start.change_hidden')}</span>
                  </button>
                </>
              )}
            </dd>
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
        {view.channel === 'aggregator' && view.shell?.pages.promotion_terms && (
          // The comparison site's promotion: its terms (owner-payment.md §9 Documents and static copy).
          <p className="hint">
            <a
              href={view.shell.pages.promotion_terms}
              onClick={(e) => {
                e.preventDefault();
                onOpen(view.shell?.pages.promotion_terms ?? '');
              }}
            >
              {text(copy, 'review.promotion_terms')}
            </a>
          </p>
        )}
      </section>

      {pets.map((pet, i) => (
        <ReviewPetCard
          key={String(pet.original_id ?? i)}
          view={view}
          copy={copy}
          busy={busy}
          pet={pet}
          index={i}
          onEdit={onEdit}
          onOpen={onOpen}
          onModal={setModal}
          onRemove={setRemoving}
        />
      ))}

      <DemandsNeeds view={view} copy={copy} />

      <OwnerDetailsCard view={view} copy={copy} onModal={setModal} />

      <section className="card" aria-labelledby="review-discounts-heading">
        <h2 id="review-discounts-heading" className="pet__heading">
          {text(copy, 'review.discounts.heading')}
        </h2>
        {/* Monthly or yearly amounts, where there is a discount to show either way. */}
        {summary.discounts_monthly.length > 0 && (
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
        )}
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

      <ReviewReassurance view={view} copy={copy} part="rating" />

      <div className="actions">
        <button type="button" className="button" disabled={busy || !summary.every_pet_chosen} onClick={() => onContinue(view.step.next ?? `${base}/assumptions`)}>
          {text(copy, 'review.continue')}
        </button>
      </div>

      {/* The other ways on, after Continue (the way to buy is not behind them). */}
      <section className="card" aria-labelledby="review-add-pet-heading">
        <h2 id="review-add-pet-heading" className="pet__heading">
          {text(copy, 'review.add_pet')}
        </h2>
        <p>{text(copy, 'review.add_pet.body')}</p>
        <button type="button" className="button button--secondary" disabled={busy} onClick={onAddPet}>
          {text(copy, 'review.add_pet')}
        </button>
      </section>
      {view.edits.quote_reminder && (
        <p className="review__email-quote">
          <EmailQuoteButton csrf={view.csrf} copy={copy} notify={notify} />
        </p>
      )}

      <ReviewReassurance view={view} copy={copy} part="reading" />

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
          focusOn={modal.field}
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
          onSave={(a) => onEdit({ form: view.edits.start_date?.id ?? '', call: view.edits.start_date?.submit ?? '', answers: a, notice: 'start_date.saved' })}
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
          onSave={(a) => onEdit({ form: view.edits.pre_existing?.id ?? '', call: view.edits.pre_existing?.submit ?? '', answers: a, notice: 'pre_existing.saved' })}
        />
      )}
      {modal?.kind === 'pet' && petEdit(view) && (
        // journey.md §2 Modals "edit pet details": the pet's answers changed in place; the review
        // comes back with the new prices, or the page the change now needs.
        <EditDialog
          questions={petEdit(view)!}
          title={text(copy, 'review.pet.edit', { petName: String(pets[modal.pet]?.pet_name ?? '') })}
          onlyPet={modal.pet}
          focusOn={modal.field}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => setModal(null)}
          onSave={(a) =>
            onEdit({ form: petEdit(view)!.id, call: petEdit(view)!.submit ?? '', answers: a, notice: 'review.updated' })
          }
        />
      )}
      {modal?.kind === 'cover' && view.edits.cover && (
        <ChooseCoverModal
          view={view}
          copy={copy}
          index={modal.pet}
          busy={busy}
          onCancel={() => setModal(null)}
          onSave={(code) => onEdit({ form: view.edits.cover?.id ?? '', call: view.edits.cover?.submit ?? '', answers: coverAnswers(view, modal.pet, code), notice: 'review.updated' })}
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
              call: view.edits.quote_reminder?.submit ?? '',
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
