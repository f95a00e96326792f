/**
 * Retrieve a quote (owner-payment.md §2 Retrieve quote): the quote reference and the email
 * address. One message for any wrong detail (the server gives nothing away); an expired quote
 * comes back as a new one starting today, with the spec's message; a quote bought in another
 * browser is only said to be bought. When the reference has had too many tries (someone guessing
 * at it), the page offers to email a one-time link to the address on the quote, so its owner is
 * never kept out; the answer is the same words whether or not the reference is one of ours.
 */
import { useState } from 'react';

import { ErrorSummary, focusField } from '@/features/form/ErrorSummary';
import { submitAnswers } from '@/features/journey/api';
import { text } from '@/shared/copy';
import type { FieldMessage, ViewData } from '@/shared/types';

/** Whether the page was opened from a one-time link that had expired or been used. */
export function linkRefused(search: string): boolean {
  return new URLSearchParams(search).get('link') === 'invalid';
}

/**
 * The reference a quote email's link carries (`?reference=ABCD-EFGH-JKMN`), if it looks
 * like one: the form starts with it, and still asks for the email address.
 */
export function referenceFromLink(search: string): string {
  const given = new URLSearchParams(search).get('reference') ?? '';
  return /^[A-Za-z0-9-]{1,20}$/.test(given) ? given.toUpperCase() : '';
}

export function RetrieveQuoteStep({
  view,
  copy,
  onRetrieved,
}: {
  view: ViewData;
  copy: Record<string, string>;
  onRetrieved: (path: string, expired: boolean) => void;
}) {
  const [reference, setReference] = useState(() => referenceFromLink(window.location.search));
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<FieldMessage[]>([]);
  const [busy, setBusy] = useState(false);
  const [purchased, setPurchased] = useState<string | null>(null);
  // Too many tries (from this browser, at this reference, or from a busy shared address): said on
  // the page with the brand's number, not as a fault of the reference.
  const [refused, setRefused] = useState(false);
  // The one-time link: asked for (busy), and what the server said.
  const [linkBusy, setLinkBusy] = useState(false);
  const [linkSent, setLinkSent] = useState<string | null>(null);
  const [staleLink] = useState(() => linkRefused(window.location.search));

  async function askForLink() {
    setLinkBusy(true);
    const result = await submitAnswers('/api/quoteretrieval-link', view.csrf, { quote_reference: reference });
    setLinkBusy(false);
    if (result.kind === 'ok') {
      const data = result.data as unknown as { message?: string };
      setLinkSent(data.message ?? '');
    } else if (result.kind === 'failed' && result.status === 429) {
      setLinkSent(text(copy, 'retrieve.too_many', { phone: view.shell?.phone ?? '' }));
    } else {
      setLinkSent(text(copy, 'toast.generic.body'));
    }
  }

  async function submit() {
    const found: FieldMessage[] = [];
    if (!reference.trim()) found.push({ field: 'quote_reference', message: text(copy, 'error.required') });
    if (!email.trim()) found.push({ field: 'email', message: text(copy, 'error.required') });
    setErrors(found);
    if (found.length > 0) {
      focusField(found[0].field);
      return;
    }
    setBusy(true);
    setRefused(false);
    const result = await submitAnswers('/api/quoteretrieval', view.csrf, { quote_reference: reference, email });
    setBusy(false);
    if (result.kind === 'ok') {
      const data = result.data as unknown as { path?: string; expired?: boolean; purchased?: boolean; message?: string };
      if (data.purchased) {
        // Bought in another browser: the server says so and shows nothing of it.
        setPurchased(data.message ?? '');
        return;
      }
      onRetrieved(data.path ?? '', data.expired ?? false);
    } else if (result.kind === 'invalid') {
      setErrors(result.errors);
      if (result.errors[0]) focusField(result.errors[0].field);
    } else if (result.kind === 'failed' && result.status === 429) {
      setRefused(true);
    } else {
      setErrors([{ field: 'quote_reference', message: text(copy, 'toast.generic.body') }]);
    }
  }

  const field = (name: 'quote_reference' | 'email', label: string, value: string, set: (v: string) => void, hint?: string) => {
    const error = errors.find((e) => e.field === name)?.message;
    const id = `retrieve-${name}`;
    return (
      <div className={`field${error ? ' field--error' : ''}`} data-field={name}>
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        {hint && (
          <p className="field__help" id={`${id}__help`}>
            {hint}
          </p>
        )}
        {error && (
          <p className="field__error" id={`${id}__error`}>
            <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
            {error}
          </p>
        )}
        <input
          id={id}
          className="text-input"
          type={name === 'email' ? 'email' : 'text'}
          autoComplete={name === 'email' ? 'email' : 'off'}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={[hint ? `${id}__help` : '', error ? `${id}__error` : ''].filter(Boolean).join(' ') || undefined}
          onChange={(e) => set(e.target.value)}
        />
      </div>
    );
  };

  if (purchased !== null) {
    return (
      <div className="retrieve">
        <div className="panel panel--info" role="status" tabIndex={-1} ref={(el) => el?.focus()}>
          <p>{purchased}</p>
        </div>
      </div>
    );
  }

  return (
    <form
      className="retrieve"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p className="lead">{text(copy, 'retrieve.intro')}</p>
      {staleLink && !refused && linkSent === null && (
        <div className="panel panel--warning retrieve__notice" role="alert">
          <p>{text(copy, 'retrieve.link.invalid')}</p>
        </div>
      )}
      {refused && linkSent === null && (
        <div className="panel panel--warning retrieve__notice" role="alert" tabIndex={-1} ref={(el) => el?.focus()}>
          <p>{text(copy, 'retrieve.too_many', { phone: view.shell?.phone ?? '' })}</p>
          {reference.trim() && (
            <>
              <p>{text(copy, 'retrieve.link.offer')}</p>
              <button type="button" className="button button--secondary" disabled={linkBusy} onClick={() => void askForLink()}>
                {linkBusy ? text(copy, 'button.saving') : text(copy, 'retrieve.link.button')}
              </button>
            </>
          )}
        </div>
      )}
      {linkSent !== null && (
        <div className="panel panel--info retrieve__notice" role="status" tabIndex={-1} ref={(el) => el?.focus()}>
          <p>{linkSent}</p>
        </div>
      )}
      {/* Each field named in the summary (not "required" twice). */}
      <ErrorSummary errors={errors} pets={[]} ui={{ quote_reference: { 'ui:title': text(copy, 'retrieve.reference') }, email: { 'ui:title': text(copy, 'retrieve.email') } }} copy={copy} />
      {field('quote_reference', text(copy, 'retrieve.reference'), reference, setReference, text(copy, 'retrieve.reference.hint'))}
      {field('email', text(copy, 'retrieve.email'), email, setEmail)}
      <div className="actions">
        <button type="submit" className="button" disabled={busy}>
          {busy ? text(copy, 'button.saving') : text(copy, 'retrieve.submit')}
        </button>
      </div>
    </form>
  );
}
