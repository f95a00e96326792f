/**
 * The payment page (owner-payment.md §2 Payment page, §4 Direct Debit date): the quote summary
 * collapsed into an accordion; the Direct Debit form (the payment question set, drawn like any
 * step); the payment-date notice, following the frequency and day as they are chosen, from the
 * schedule the server works out; the Direct Debit Guarantee modal with the brand as originator;
 * important information, keeping in touch and the Insurance Premium Tax note; Confirm payment
 * and Back.
 */
import { useMemo, useRef, useState } from 'react';

import { FormStep } from '@/features/form/FormStep';
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import { tokeniseCard, validateBank } from '@/features/journey/api';
import type { Notice } from '@/features/journey/journey-machine';
import { ClaimTerms } from '@/features/products/ClaimTerms';
import { Modal } from '@/features/shell/Modal';
import { CommunicationsPanel } from '@/features/preferences/CommunicationsPanel';
import { ProviderCardFields, withoutProviderFields, type ProviderCardHandle } from './ProviderCardFields';
import { coverTypeName, text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { FieldMessage, Product, ViewData } from '@/shared/types';
import './payment.css';

type Answers = Record<string, unknown>;
type Frequency = 'MP' | 'AP';
type Method = 'DD' | 'CC';

/** The issuers a card may be from (owner-payment.md §5 Payment), shown as "We accept". */
const ACCEPTED = ['visa', 'mcdebit', 'maestro', 'uke', 'amex', 'jcb'] as const;

/**
 * The card payer's notice (owner-payment.md §2 payment-date notice): the first payment is taken
 * when they confirm, and a monthly payer's others on the same day each month (the 28th at most),
 * as the server's card schedule has it.
 */
function CardNotice({ view, copy, frequency }: { view: ViewData; copy: Record<string, string>; frequency: Frequency }) {
  const { price } = useMoney();
  const day = Math.min(new Date().getDate(), 28);
  const key = frequency === 'AP' ? 'payment.card.notice.annual' : 'payment.card.notice.monthly';
  const first = frequency === 'AP' ? view.summary.annual : view.summary.monthly;
  return (
    <p className="panel panel--info" role="status">
      {text(copy, key, { first: price(first), amount: price(view.summary.monthly), day: ordinal(day) })}
    </p>
  );
}

/**
 * A choice drawn from a question's schema and UI hints (its enum, title and enum names), for the
 * page-level choices that sit above the form: how often and how to pay.
 */
function ChoiceGroup<T extends string>({
  name,
  legend,
  options,
  value,
  onChange,
  copy,
}: {
  name: string;
  legend: string;
  /** `hint`: words already written (an amount in them), shown under the option and read with it. */
  options: Array<{ value: T; label: string; hint?: string }>;
  value: T;
  onChange: (v: T) => void;
  copy: Record<string, string>;
}) {
  const hinted = options.some((o) => o.hint);
  return (
    <fieldset className="choice card">
      <legend className="field__label">{text(copy, legend)}</legend>
      <div className={hinted ? 'choice__options choice__options--hinted' : 'choice__options'}>
        {options.map((o) => (
          <div className="choice__option" key={o.value}>
            <input
              type="radio"
              id={`${name}-${o.value}`}
              name={name}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              aria-describedby={o.hint ? `${name}-${o.value}-hint` : undefined}
            />
            <label htmlFor={`${name}-${o.value}`}>
              {text(copy, o.label)}
              {o.hint && (
                <span className="choice__hint" id={`${name}-${o.value}-hint`}>
                  {o.hint}
                </span>
              )}
            </label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * What each way of paying costs: the month's price; the year's, which is twelve
 * months' price with no saving (owner-payment.md §4 Prices: the annual view is 12 × monthly), and
 * when it is taken.
 */
function frequencyHint(copy: Record<string, string>, price: (v: string) => string, view: ViewData, f: Frequency, method: Method): string {
  if (f === 'MP') return text(copy, 'payment.frequency.monthly.hint', { monthly: price(view.summary.monthly) });
  return text(copy, method === 'CC' ? 'payment.frequency.annual.hint_card' : 'payment.frequency.annual.hint_dd', { annual: price(view.summary.annual) });
}

/** Beside Confirm payment: nothing is taken yet; the next page is a check. */
function NothingTakenYet({ copy }: { copy: Record<string, string> }) {
  return (
    <p className="hint payment__next" id="payment-next">
      {text(copy, 'payment.confirm.next')}
    </p>
  );
}

function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${{ 1: 'st', 2: 'nd', 3: 'rd' }[day % 10] ?? 'th'}`;
}

type FirstCollection = { date: string; amount: string; payments: number; regular: string };

/** The payment-date notice's sentence: the first collection, and then each month's. */
export function collectionText(copy: Record<string, string>, price: (v: string) => string, frequency: Frequency, day: number, first: FirstCollection): string {
  const key = frequency === 'AP' ? 'payment.notice.annual' : first.payments > 1 ? 'payment.notice.monthly_double' : 'payment.notice.monthly';
  return text(copy, key, { first: price(first.amount), date: ukDate(first.date), amount: price(first.regular), day: ordinal(day) });
}

function DateNotice({ view, copy, answers, frequency }: { view: ViewData; copy: Record<string, string>; answers: Answers; frequency: Frequency }) {
  const { price } = useMoney();
  const payment = (answers.payment ?? {}) as { payment_day?: number };
  const day = payment.payment_day;
  const first = typeof day === 'number' ? view.collections?.[frequency]?.[String(day)] : undefined;
  if (!first || typeof day !== 'number') return null;
  return (
    <p className="panel panel--info" role="status">
      {collectionText(copy, price, frequency, day, first)}
    </p>
  );
}

export function PaymentStep({
  view,
  copy,
  busy,
  serverErrors,
  submissions,
  onSubmit,
  onOpen,
  onNotice,
}: {
  view: ViewData;
  copy: Record<string, string>;
  busy: boolean;
  serverErrors: readonly FieldMessage[];
  submissions: number;
  onSubmit: (answers: Answers) => void;
  onOpen: (path: string) => void;
  onNotice: (n: Notice) => void;
}) {
  const { amount, price } = useMoney();
  const [guarantee, setGuarantee] = useState(false);
  const stored = view.payment as { payment_method?: string; payment_frequency?: string };
  const methods = view.payment_options?.methods ?? ['DD'];
  const cardOffer = view.payment_options?.card ?? null;
  const [method, setMethod] = useState<Method>(stored.payment_method === 'CC' && cardOffer ? 'CC' : 'DD');
  const [frequency, setFrequency] = useState<Frequency>(stored.payment_frequency === 'AP' ? 'AP' : 'MP');
  const yearly = frequency === 'AP';
  const [cardErrors, setCardErrors] = useState<FieldMessage[]>([]);
  const [cardAttempts, setCardAttempts] = useState(0);
  const [sending, setSending] = useState(false);
  // A provider that draws its own card fields (Stripe): the card form asks only the rest.
  const providerFields = cardOffer?.provider.kind === 'stripe' ? cardOffer.provider : null;
  const providerCard = useRef<ProviderCardHandle | null>(null);
  const [providerError, setProviderError] = useState<string | null>(null);
  const cardQuestions = useMemo(() => (cardOffer && providerFields ? withoutProviderFields(cardOffer.questions) : cardOffer?.questions), [cardOffer, providerFields]);
  const brand = text(copy, 'app.brand');
  const base = view.step.path.replace(/\/payment$/, '');
  const questions = view.questions;
  if (!questions) return null;
  // How often to pay: the payment question set's own question, drawn above the form.
  const paymentSchema = (questions.schema.properties as Record<string, { properties?: Record<string, { enum?: string[] }> }> | undefined)?.payment;
  const frequencies = (paymentSchema?.properties?.payment_frequency?.enum ?? ['MP', 'AP']) as Frequency[];
  const frequencyUi = ((questions.ui.payment as Record<string, Record<string, unknown>> | undefined)?.payment_frequency ?? {}) as {
    'ui:title'?: string;
    'ui:enumNames'?: string[];
  };
  // Errors the server gives on the card as a whole (a token past its time, a method the brand
  // does not take): shown above the card form.
  const paymentErrors = serverErrors.filter((e) => e.field === 'payment.card_token' || e.field === 'payment.payment_method');
  const important = (
    <section className="card" aria-labelledby="important-heading">
      <h2 id="important-heading" className="pet__heading">
        {text(copy, 'payment.important.title')}
      </h2>
      <p>{text(copy, 'payment.important.body')}</p>
      <p className="hint">{text(copy, 'payment.ipt')}</p>
    </section>
  );
  const back = (
    <button type="button" className="button button--secondary" onClick={() => onOpen(`${base}/review`)}>
      {text(copy, 'payment.back')}
    </button>
  );
  return (
    <div className="payment">
      <details className="card accordion">
        <summary className="accordion__summary">
          {text(copy, 'payment.summary')}: {yearly ? price(view.summary.annual) : price(view.summary.monthly)} {text(copy, yearly ? 'cover.per_year' : 'cover.per_month')}
        </summary>
        <dl className="summary">
          {view.pets.map((pet, i) => {
            const product = pet.product as Product | undefined;
            return product ? (
              <div className="summary__row" key={String(pet.original_id ?? i)}>
                <dt>
                  {String(pet.pet_name ?? '')}: {coverTypeName(copy, product.Gid)} {amount(String(product.LimitVal))}
                </dt>
                <dd>
                  {yearly ? price(product.AnnualPremium) : price(product.RecurringMonthly)} {text(copy, yearly ? 'cover.per_year' : 'cover.per_month')}
                </dd>
                <dd className="summary__terms">
                  <ClaimTerms product={product} copy={copy} />
                </dd>
              </div>
            ) : null;
          })}
          <div className="summary__row">
            <dt>{text(copy, 'review.total')}</dt>
            <dd>
              {yearly ? (
                <>
                  {price(view.summary.annual)} {text(copy, 'cover.per_year')}
                </>
              ) : (
                <>
                  {price(view.summary.monthly)} {text(copy, 'cover.per_month')} · {price(view.summary.annual)} {text(copy, 'cover.per_year')}
                </>
              )}
            </dd>
          </div>
        </dl>
      </details>
      <ChoiceGroup
        name="payment_frequency"
        legend={frequencyUi['ui:title'] ?? 'payment.frequency.label'}
        options={frequencies.map((f, i) => ({ value: f, label: frequencyUi['ui:enumNames']?.[i] ?? f, hint: frequencyHint(copy, price, view, f, method) }))}
        value={frequency}
        onChange={setFrequency}
        copy={copy}
      />
      {methods.length > 1 && cardOffer && (
        <ChoiceGroup
          name="payment_method"
          legend="payment.method.label"
          options={methods.map((m) => ({ value: m, label: m === 'CC' ? 'payment.method.card' : 'payment.method.dd' }))}
          value={method}
          onChange={(m) => {
            setMethod(m);
            setCardErrors([]);
          }}
          copy={copy}
        />
      )}
      {method === 'CC' && cardOffer ? (
        <>
          <h2 className="pet__heading">{text(copy, 'payment.card.heading')}</h2>
          <div className="card-marks">
            <span className="card-marks__label" id="card-marks-label">
              {text(copy, 'payment.wallets.label')}
            </span>
            <ul className="card-marks__list" aria-labelledby="card-marks-label">
              {ACCEPTED.map((issuer) => (
                <li key={issuer} className={`card-mark card-mark--${issuer}`}>
                  {text(copy, `card.issuer.${issuer}`)}
                </li>
              ))}
            </ul>
          </div>
          {paymentErrors.length > 0 && (
            <div className="panel panel--stop" role="alert">
              {paymentErrors.map((e) => (
                <p key={e.field}>{e.message}</p>
              ))}
            </div>
          )}
          {providerFields && <ProviderCardFields provider={providerFields} language={view.language} copy={copy} handle={providerCard} error={providerError} />}
          <FormStep
            questions={cardQuestions ?? cardOffer.questions}
            copy={copy}
            serverErrors={cardErrors}
            submissions={cardAttempts}
            busy={busy || sending}
            submitLabel={text(copy, 'payment.confirm')}
            onSubmit={async (answers) => {
              // The card goes to the payment provider; pawpath is sent its token only.
              if (providerFields) {
                const card = (answers.card ?? {}) as Record<string, string | undefined>;
                setSending(true);
                const made = providerCard.current
                  ? await providerCard.current.create({
                      name: card.card_name,
                      address: { line1: card.address1, line2: card.address2, city: card.address3, state: card.address4, country: 'GB' },
                    })
                  : { error: null };
                setSending(false);
                if ('token' in made) {
                  setProviderError(null);
                  onSubmit({ payment: { payment_method: 'CC', payment_frequency: frequency, card_token: made.token } });
                } else if (made.error) {
                  setProviderError(made.error);
                } else {
                  onNotice({ kind: 'error', title: 'payment.card.unavailable.title', body: 'payment.card.unavailable' });
                }
                return;
              }
              if (cardOffer.provider.kind !== 'form') return;
              setSending(true);
              const result = await tokeniseCard(cardOffer.provider, (answers.card ?? {}) as Record<string, unknown>, view.language);
              setSending(false);
              if (result.kind === 'invalid') {
                setCardErrors(result.errors);
                setCardAttempts((n) => n + 1);
                return;
              }
              if (result.kind === 'failed') {
                onNotice({ kind: 'error', title: 'payment.card.unavailable.title', body: 'payment.card.unavailable' });
                return;
              }
              setCardErrors([]);
              onSubmit({ payment: { payment_method: 'CC', payment_frequency: frequency, card_token: result.token } });
            }}
            storedPets={view.pets.length}
            onRemoveStoredPet={() => undefined}
            onNotice={onNotice}
            beforeActions={() => (
              <>
                <CardNotice view={view} copy={copy} frequency={frequency} />
                {important}
                <CommunicationsPanel edit={view.edits.communications} csrf={view.csrf} copy={copy} onNotice={onNotice} />
                <NothingTakenYet copy={copy} />
              </>
            )}
            submitDescribedBy="payment-next"
            secondaryAction={back}
          />
        </>
      ) : (
        <FormStep
          questions={questions}
          copy={copy}
          serverErrors={serverErrors}
          submissions={submissions}
          busy={busy}
          submitLabel={text(copy, 'payment.confirm')}
          onSubmit={async (answers) => {
            // owner-payment.md §4 Bank validation: checked first; if invalid, an error toast and
            // nothing is sent. The server checks again when the form is saved.
            const payment = (answers.payment ?? {}) as { sort_code?: string; account_number?: string };
            const valid = await validateBank(view.csrf, payment);
            if (valid === false) {
              onNotice({ kind: 'error', title: 'payment.bank.invalid.title', body: 'payment.bank.invalid' });
              return;
            }
            onSubmit({ ...answers, payment: { ...payment, payment_method: 'DD', payment_frequency: frequency } });
          }}
          storedPets={view.pets.length}
          onRemoveStoredPet={() => undefined}
          onNotice={onNotice}
          beforeActions={(answers) => (
            <>
              <DateNotice view={view} copy={copy} answers={answers} frequency={frequency} />
              <p>
                <button type="button" className="link-button" onClick={() => setGuarantee(true)}>
                  {text(copy, 'payment.guarantee.link')}
                </button>
              </p>
              {important}
              <CommunicationsPanel edit={view.edits.communications} csrf={view.csrf} copy={copy} onNotice={onNotice} />
              <NothingTakenYet copy={copy} />
            </>
          )}
          submitDescribedBy="payment-next"
          secondaryAction={back}
        />
      )}
      {guarantee && (
        <Modal titleId="guarantee-title" title={text(copy, 'payment.guarantee.title')} onCancel={() => setGuarantee(false)}>
          {[1, 2, 3, 4, 5].map((n) => (
            <p key={n}>{text(copy, `payment.guarantee.body.${n}`, { brand })}</p>
          ))}
          <div className="dialog__actions">
            <button type="button" className="button" onClick={() => setGuarantee(false)}>
              {text(copy, 'button.close')}
            </button>
          </div>
        </Modal>
      )}
    </div>
  );
}
