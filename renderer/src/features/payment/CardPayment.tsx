/**
 * Paying by card (owner-payment.md §5 Payment): the issuers accepted, the card form (or the
 * provider's own card fields, Stripe's), the card payer's notice; the card goes to the payment
 * provider and pawpath is sent its token only.
 */
import { type ReactNode, useMemo, useRef, useState } from 'react';

import { FormStep } from '@/features/form/FormStep';
import { tokeniseCard } from '@/features/journey/api';
import type { Notice } from '@/features/journey/journey-machine';
import { CommunicationsPanel } from '@/features/preferences/CommunicationsPanel';
import { text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { FieldMessage, ViewData } from '@/shared/types';
import { NothingTakenYet, ordinal } from './PaymentNotes';
import { ProviderCardFields, withoutProviderFields, type ProviderCardHandle } from './ProviderCardFields';

type Answers = Record<string, unknown>;
type Frequency = 'MP' | 'AP';

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

export function CardPayment({
  view,
  copy,
  busy,
  offer: cardOffer,
  frequency,
  serverErrors,
  important,
  back,
  onSubmit,
  onNotice,
}: {
  view: ViewData;
  copy: Record<string, string>;
  busy: boolean;
  offer: NonNullable<NonNullable<ViewData['payment_options']>['card']>;
  frequency: Frequency;
  serverErrors: readonly FieldMessage[];
  important: ReactNode;
  back: ReactNode;
  onSubmit: (answers: Answers) => void;
  onNotice: (n: Notice) => void;
}) {
  const [cardErrors, setCardErrors] = useState<FieldMessage[]>([]);
  const [cardAttempts, setCardAttempts] = useState(0);
  const [sending, setSending] = useState(false);
  // A provider that draws its own card fields (Stripe): the card form asks only the rest.
  const providerFields = cardOffer.provider.kind === 'stripe' ? cardOffer.provider : null;
  const providerCard = useRef<ProviderCardHandle | null>(null);
  const [providerError, setProviderError] = useState<string | null>(null);
  const cardQuestions = useMemo(() => (providerFields ? withoutProviderFields(cardOffer.questions) : cardOffer.questions), [cardOffer, providerFields]);
  // Errors the server gives on the card as a whole (a token past its time, a method the brand
  // does not take): shown above the card form.
  const paymentErrors = serverErrors.filter((e) => e.field === 'payment.card_token' || e.field === 'payment.payment_method');
  return (
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
  );
}
