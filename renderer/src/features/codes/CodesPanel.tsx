/**
 * The codes on the owner details page (owner-payment.md §2 promo code and referral or branch code
 * modals; §4 Promo code, Nectar card, Referral or branch code; §8 Promo and Nectar):
 *
 * - Promo code: the code is checked (POST /api/checkoffercode). Not valid: the fields are cleared,
 *   the failure toast shows and the modal closes. Valid: kept on the owner through the owner
 *   update (whose rule checks it again), the button becomes Edit and a toast shows the
 *   promotion. A Nectar promotion asks for the card's last 11 digits (checked through
 *   /api/getnectarcard) before the modal closes. An empty field does nothing.
 * - Referral or branch code: a modal over the referral_code question set; closing without saving
 *   keeps the previous value.
 */
import { type InputHTMLAttributes, type ReactNode, type Ref, useEffect, useRef, useState } from 'react';

import { EditDialog } from '@/features/form/EditDialog';
import { Modal } from '@/features/shell/Modal';
import type { EditRequest, Notice } from '@/features/journey/journey-machine';
import { text } from '@/shared/copy';
import type { FieldMessage, ViewData } from '@/shared/types';
import './codes.css';
import { postHeaders } from '@/shared/post-headers';

type Offer = { valid: boolean; desc: string; summ: string; nectar: boolean };

async function postJson<T>(url: string, body: Record<string, unknown>): Promise<{ status: number; body: T | null }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: typeof body.csrf === 'string' ? postHeaders(body.csrf) : { Accept: 'application/json', 'Content-Type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify({ ...body, locale: 'en-GB' }),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as T | null };
}

/**
 * The toast a promo check's answer calls for, as a copy key prefix, or null when it carries an
 * offer (owner-payment.md §8 Promo and Nectar): a failed call "Something went wrong" / "We
 * encountered an error, please try again."; "an empty promo response gives a promo API failure
 * toast", "Error" / "Promo code error, please try again.".
 */
export function promoFailure(status: number, offer: unknown): 'toast.something_wrong' | 'promo.toast.error' | null {
  if (status !== 200) return 'toast.something_wrong';
  return offer ? null : 'promo.toast.error';
}

/** A code modal: its form, the fields, then the button and Cancel. */
function CodeForm({
  titleId,
  title,
  onClose,
  onSubmit,
  submitLabel,
  busy,
  copy,
  children,
}: {
  titleId: string;
  title: string;
  onClose: () => void;
  onSubmit: () => void;
  submitLabel: string;
  busy: boolean;
  copy: Record<string, string>;
  children: ReactNode;
}) {
  return (
    <Modal titleId={titleId} title={title} onCancel={onClose}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {children}
        <div className="dialog__actions">
          <button type="submit" className="button" disabled={busy}>
            {busy ? text(copy, 'button.saving') : submitLabel}
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {text(copy, 'button.cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** A labelled text box with its hint and error, and an optional fixed prefix (the Nectar card's). */
function CodeField({
  id,
  label,
  help,
  error,
  prefix,
  copy,
  input,
}: {
  id: string;
  label: string;
  help?: string;
  error: string | null;
  prefix?: string;
  copy: Record<string, string>;
  input: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };
}) {
  const describedBy = [help ? `${id}__help` : '', error ? `${id}__error` : ''].filter(Boolean).join(' ') || undefined;
  const box = (
    <input
      id={id}
      className="text-input"
      autoComplete="off"
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy}
      {...input}
    />
  );
  return (
    <div className={`field${error ? ' field--error' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {help && (
        <p className="field__help" id={`${id}__help`}>
          {help}
        </p>
      )}
      {error && (
        <p className="field__error" id={`${id}__error`}>
          <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
          {error}
        </p>
      )}
      {prefix ? (
        <div className="nectar">
          <span className="nectar__prefix" aria-hidden="true">
            {prefix}
          </span>
          {box}
        </div>
      ) : (
        box
      )}
    </div>
  );
}

function PromoDialog({
  view,
  copy,
  busy,
  serverErrors,
  onSave,
  onClose,
  notify,
}: {
  view: ViewData;
  copy: Record<string, string>;
  busy: boolean;
  serverErrors: readonly FieldMessage[];
  onSave: (request: EditRequest) => void;
  onClose: () => void;
  notify: (n: Notice) => void;
}) {
  const [code, setCode] = useState(String(view.owner.promotional_code ?? ''));
  const [nectar, setNectar] = useState(String(view.owner.nectarCardNumber ?? ''));
  const [needsNectar, setNeedsNectar] = useState(false);
  const [nectarError, setNectarError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const nectarRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (needsNectar) nectarRef.current?.focus();
  }, [needsNectar]);
  const serverCodeError = serverErrors.find((e) => e.field === 'owner.promotional_code')?.message;
  const serverNectarError = serverErrors.find((e) => e.field === 'owner.nectarCardNumber')?.message;
  const shownCodeError = codeError ?? serverCodeError ?? null;
  const shownNectarError = nectarError ?? serverNectarError ?? null;
  const edit = view.edits.promo_code;

  async function submit() {
    const typed = code.trim();
    if (!typed) return; // owner-payment.md §4: the form does nothing if the field is empty
    setChecking(true);
    setCodeError(null);
    setNectarError(null);
    try {
      const checked = await postJson<{ data?: Offer; message?: string }>('/api/checkoffercode', {
        offercode: typed,
        species: '',
        token: '',
        brand: view.brand,
      });
      if (checked.status === 429) {
        setCodeError(checked.body?.message ?? text(copy, 'error.rate_limited'));
        return;
      }
      const offer = checked.body?.data;
      const failed = promoFailure(checked.status, offer);
      if (failed || !offer) {
        notify({ kind: 'error', title: `${failed}.title`, body: `${failed}.body` });
        return;
      }
      if (!offer.valid) {
        setCode('');
        setNectar('');
        notify({ kind: 'error', title: 'promo.toast.invalid.title', body: 'promo.toast.invalid.body' });
        onClose();
        return;
      }
      let card: string | undefined;
      if (offer.nectar) {
        const digits = nectar.replace(/\s+/g, '');
        if (!digits) {
          setNeedsNectar(true);
          setNectarError(text(copy, 'nectar.invalid'));
          return;
        }
        const looked = await postJson<{ nectarCard?: { valid: boolean }; message?: string }>('/api/getnectarcard', { nectarcard: digits });
        if (looked.status === 429) {
          setNectarError(looked.body?.message ?? text(copy, 'error.rate_limited'));
          return;
        }
        if (!looked.body?.nectarCard?.valid) {
          setNeedsNectar(true);
          setNectarError(text(copy, 'nectar.invalid'));
          return;
        }
        card = digits;
      }
      onSave({
        form: edit?.id ?? '',
        call: edit?.submit ?? '/api/ownerdetail',
        answers: { owner: card ? { promotional_code: typed, nectarCardNumber: card } : { promotional_code: typed } },
        // The toast shows the promotion as the check described it, and with a Nectar card also
        // that the card was added (owner-payment.md §8 Promo and Nectar: both successes).
        notice: card ? `${offer.desc}: ${offer.summ} ${text(copy, 'nectar.toast.added')}` : `${offer.desc}: ${offer.summ}`,
      });
    } catch {
      notify({ kind: 'error', title: 'toast.something_wrong.title', body: 'toast.something_wrong.body' });
    } finally {
      setChecking(false);
    }
  }

  const showNectar = needsNectar || Boolean(view.owner.nectarCardNumber) || Boolean(serverNectarError);
  return (
    <CodeForm titleId="promo-title" title={text(copy, 'promo.title')} onClose={onClose} onSubmit={() => void submit()}
      submitLabel={text(copy, 'button.save_close')} busy={busy || checking} copy={copy}>
      <CodeField id="promo-code" label={text(copy, 'promo.label')} error={shownCodeError} copy={copy}
        input={{ value: code, onChange: (e) => setCode(e.target.value) }} />
      {showNectar && (
        <CodeField id="nectar-card" label={text(copy, 'nectar.label')} help={text(copy, 'nectar.hint')} error={shownNectarError}
          prefix={text(copy, 'nectar.prefix')} copy={copy}
          input={{
            ref: nectarRef,
            className: 'text-input nectar__digits',
            inputMode: 'numeric',
            maxLength: 11,
            value: nectar,
            onChange: (e) => setNectar(e.target.value.replace(/[^0-9]/g, '')),
          }} />
      )}
      {/* owner-payment.md §9 Documents and static copy: the Nectar terms, beside the card number they apply to. */}
      {showNectar && <p className="field__help">{text(copy, 'nectar.terms')}</p>}
    </CodeForm>
  );
}

function PolicyDialog({
  view,
  copy,
  onClose,
  onFound,
  notify,
}: {
  view: ViewData;
  copy: Record<string, string>;
  onClose: () => void;
  onFound: () => void;
  notify: (n: Notice) => void;
}) {
  const [number, setNumber] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  async function submit() {
    setError(null);
    setChecking(true);
    try {
      const answer = await postJson<{ data?: { existing_policy_valid?: boolean }; errors?: FieldMessage[]; message?: string }>(
        '/api/CheckExistingPolicy',
        { csrf: view.csrf, policyno: number, brand: view.brand, postcode: '' },
      );
      if (answer.status === 422 || answer.status === 429) {
        setError(answer.body?.errors?.[0]?.message ?? answer.body?.message ?? text(copy, 'policy.invalid'));
        return;
      }
      if (answer.status !== 200) {
        notify({ kind: 'error', title: 'toast.generic.title', body: 'toast.generic.body' });
        return;
      }
      if (answer.body?.data?.existing_policy_valid) {
        onFound();
      } else {
        setError(text(copy, 'policy.invalid'));
        notify({ kind: 'error', title: 'policy.toast.not_found.title', body: 'policy.toast.not_found.body' });
      }
    } catch {
      notify({ kind: 'error', title: 'toast.generic.title', body: 'toast.generic.body' });
    } finally {
      setChecking(false);
    }
  }

  return (
    <CodeForm titleId="policy-title" title={text(copy, 'policy.title')} onClose={onClose} onSubmit={() => void submit()}
      submitLabel={text(copy, 'policy.check')} busy={checking} copy={copy}>
      <CodeField id="policy-number" label={text(copy, 'policy.label')} help={text(copy, 'policy.hint')} error={error} copy={copy}
        input={{ value: number, onChange: (e) => setNumber(e.target.value) }} />
    </CodeForm>
  );
}

export function CodesPanel({
  view,
  copy,
  busy,
  editErrors,
  editSubmissions,
  onEdit,
  notify,
  onRefresh,
}: {
  view: ViewData;
  copy: Record<string, string>;
  busy: boolean;
  editErrors: readonly FieldMessage[];
  editSubmissions: number;
  onEdit: (request: EditRequest) => void;
  notify: (n: Notice) => void;
  /** The quote changed outside a form (an existing policy matched): load the page again. */
  onRefresh: (notice: Notice) => void;
}) {
  const [open, setOpen] = useState<'promo' | 'referral' | 'policy' | null>(null);
  const policy = typeof view.owner.existing_policy_number === 'string' ? view.owner.existing_policy_number : null;
  const owner = view.owner;
  const promo = typeof owner.promotional_code === 'string' && owner.promotional_code ? owner.promotional_code : null;
  const referral = typeof owner.introducer_code === 'string' && owner.introducer_code ? owner.introducer_code : null;
  return (
    <div className="codes">
      {view.edits.promo_code && (
        <section className="codes__item" aria-labelledby="codes-promo">
          <h2 id="codes-promo" className="codes__title">
            {text(copy, 'promo.label')}
          </h2>
          {promo && (
            <p className="panel panel--info">
              {text(copy, 'promo.applied', { code: promo, summary: String(owner.promotional_code_summary ?? '') })}
            </p>
          )}
          <button type="button" className="button button--secondary" onClick={() => setOpen('promo')}>
            {text(copy, promo ? 'promo.edit' : 'promo.add')}
          </button>
        </section>
      )}
      {view.edits.referral_code && (
        <section className="codes__item" aria-labelledby="codes-referral">
          <h2 id="codes-referral" className="codes__title">
            {text(copy, 'referral.label')}
          </h2>
          {referral && <p className="panel panel--info">{text(copy, 'referral.saved', { code: referral })}</p>}
          <button type="button" className="button button--secondary" onClick={() => setOpen('referral')}>
            {text(copy, referral ? 'referral.edit' : 'referral.add')}
          </button>
        </section>
      )}
      {/* The check needs the owner's postcode, so it is offered once the owner's details are saved. */}
      {view.edits.existing_policy && typeof view.owner.customer_postcode === 'string' && (
        <section className="codes__item" aria-labelledby="codes-policy">
          <h2 id="codes-policy" className="codes__title">
            {text(copy, 'policy.label')}
          </h2>
          {policy ? (
            <p className="panel panel--info">{text(copy, 'policy.found', { number: policy })}</p>
          ) : (
            <button type="button" className="button button--secondary" onClick={() => setOpen('policy')}>
              {text(copy, 'policy.add')}
            </button>
          )}
        </section>
      )}
      {open === 'policy' && (
        <PolicyDialog
          view={view}
          copy={copy}
          onClose={() => setOpen(null)}
          onFound={() => onRefresh({ kind: 'success', title: 'policy.toast.found.title', body: 'policy.toast.found.body' })}
          notify={notify}
        />
      )}
      {open === 'promo' && (
        <PromoDialog
          view={view}
          copy={copy}
          busy={busy}
          serverErrors={editErrors}
          onSave={onEdit}
          onClose={() => setOpen(null)}
          notify={notify}
        />
      )}
      {open === 'referral' && view.edits.referral_code && (
        <EditDialog
          questions={view.edits.referral_code}
          title={text(copy, 'referral.title')}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => setOpen(null)}
          onSave={(answers) =>
            onEdit({ form: view.edits.referral_code?.id ?? '', call: view.edits.referral_code?.submit ?? '/api/ownerdetail', answers })
          }
        />
      )}
    </div>
  );
}
