/**
 * The payment page (owner-payment.md §2 Payment page, §4 Direct Debit date): the quote summary
 * collapsed into an accordion; the Direct Debit form (the payment question set, drawn like any
 * step); the payment-date notice, following the frequency and day as they are chosen, from the
 * schedule the server works out; the Direct Debit Guarantee modal with the brand as originator;
 * important information, keeping in touch and the Insurance Premium Tax note; Confirm payment
 * and Back.
 */
import { useState } from 'react';

import { FormStep } from '@/features/form/FormStep';
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import { validateBank } from '@/features/journey/api';
import type { Notice } from '@/features/journey/journey-machine';
import { Modal } from '@/features/shell/Modal';
import { CommunicationsPanel } from '@/features/preferences/CommunicationsPanel';
import { text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { FieldMessage, ViewData } from '@/shared/types';
import { CardPayment } from './CardPayment';
import { NothingTakenYet, ordinal } from './PaymentNotes';
import { QuoteSummary } from './QuoteSummary';
import './payment.css';

type Answers = Record<string, unknown>;
type Frequency = 'MP' | 'AP';
type Method = 'DD' | 'CC';

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
  const { price } = useMoney();
  const [guarantee, setGuarantee] = useState(false);
  const stored = view.payment as { payment_method?: string; payment_frequency?: string };
  const methods = view.payment_options?.methods ?? ['DD'];
  const cardOffer = view.payment_options?.card ?? null;
  const [method, setMethod] = useState<Method>(stored.payment_method === 'CC' && cardOffer ? 'CC' : 'DD');
  const [frequency, setFrequency] = useState<Frequency>(stored.payment_frequency === 'AP' ? 'AP' : 'MP');
  const yearly = frequency === 'AP';
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
      <QuoteSummary view={view} copy={copy} yearly={yearly} />
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
          onChange={setMethod}
          copy={copy}
        />
      )}
      {method === 'CC' && cardOffer ? (
        <CardPayment
          view={view}
          copy={copy}
          busy={busy}
          offer={cardOffer}
          frequency={frequency}
          serverErrors={serverErrors}
          important={important}
          back={back}
          onSubmit={onSubmit}
          onNotice={onNotice}
        />
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
