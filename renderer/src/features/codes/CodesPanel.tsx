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
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';

import { EditDialog } from '@/features/form/EditDialog';
import type { EditRequest, Notice } from '@/features/journey/journey-machine';
import { text } from '@/shared/copy';
import type { FieldMessage, ViewData } from '@/shared/types';

type Offer = { valid: boolean; desc: string; summ: string; nectar: boolean };

async function postJson<T>(url: string, body: Record<string, unknown>): Promise<{ status: number; body: T | null }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify({ ...body, locale: 'en-GB' }),
  });
  return { status: response.status, body: (await response.json().catch(() => null)) as T | null };
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
  const dialog = useRef<HTMLDialogElement>(null);
  const [code, setCode] = useState(String(view.owner.promotional_code ?? ''));
  const [nectar, setNectar] = useState(String(view.owner.nectarCardNumber ?? ''));
  const [needsNectar, setNeedsNectar] = useState(false);
  const [nectarError, setNectarError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const nectarRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => {
      if (d?.open) d.close();
    };
  }, []);
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
      if (checked.status !== 200 || !offer) {
        notify({ kind: 'error', title: 'toast.something_wrong.title', body: 'toast.something_wrong.body' });
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
        form: 'promo_code',
        call: edit?.submit ?? '/api/ownerdetail',
        answers: { owner: card ? { promotional_code: typed, nectarCardNumber: card } : { promotional_code: typed } },
        // The toast shows the promotion as the check described it.
        notice: card ? 'nectar.toast.added' : `${offer.desc}: ${offer.summ}`,
      });
    } catch {
      notify({ kind: 'error', title: 'toast.something_wrong.title', body: 'toast.something_wrong.body' });
    } finally {
      setChecking(false);
    }
  }

  const showNectar = needsNectar || Boolean(view.owner.nectarCardNumber) || Boolean(serverNectarError);
  // In a portal: the page's own form must not hold this one.
  return createPortal(
    <dialog
      ref={dialog}
      className="dialog dialog--form"
      aria-labelledby="promo-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id="promo-title" className="dialog__title">
        {text(copy, 'promo.title')}
      </h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className={`field${shownCodeError ? ' field--error' : ''}`}>
          <label className="field__label" htmlFor="promo-code">
            {text(copy, 'promo.label')}
          </label>
          {shownCodeError && (
            <p className="field__error" id="promo-code__error">
              <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
              {shownCodeError}
            </p>
          )}
          <input
            id="promo-code"
            className="text-input"
            autoComplete="off"
            value={code}
            aria-invalid={shownCodeError ? true : undefined}
            aria-describedby={shownCodeError ? 'promo-code__error' : undefined}
            onChange={(e) => setCode(e.target.value)}
          />
        </div>
        {showNectar && (
          <div className={`field${shownNectarError ? ' field--error' : ''}`}>
            <label className="field__label" htmlFor="nectar-card">
              {text(copy, 'nectar.label')}
            </label>
            <p className="field__help" id="nectar-card__help">
              {text(copy, 'nectar.hint')}
            </p>
            {shownNectarError && (
              <p className="field__error" id="nectar-card__error">
                <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
                {shownNectarError}
              </p>
            )}
            <div className="nectar">
              <span className="nectar__prefix" aria-hidden="true">
                {text(copy, 'nectar.prefix')}
              </span>
              <input
                id="nectar-card"
                ref={nectarRef}
                className="text-input nectar__digits"
                inputMode="numeric"
                autoComplete="off"
                maxLength={11}
                value={nectar}
                aria-invalid={shownNectarError ? true : undefined}
                aria-describedby={`nectar-card__help${shownNectarError ? ' nectar-card__error' : ''}`}
                onChange={(e) => setNectar(e.target.value.replace(/[^0-9]/g, ''))}
              />
            </div>
          </div>
        )}
        <div className="dialog__actions">
          <button type="submit" className="button" disabled={busy || checking}>
            {busy || checking ? text(copy, 'button.saving') : text(copy, 'button.save_close')}
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {text(copy, 'button.cancel')}
          </button>
        </div>
      </form>
    </dialog>,
    document.body,
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
  const dialog = useRef<HTMLDialogElement>(null);
  const [number, setNumber] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => {
      if (d?.open) d.close();
    };
  }, []);

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

  return createPortal(
    <dialog
      ref={dialog}
      className="dialog dialog--form"
      aria-labelledby="policy-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id="policy-title" className="dialog__title">
        {text(copy, 'policy.title')}
      </h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className={`field${error ? ' field--error' : ''}`}>
          <label className="field__label" htmlFor="policy-number">
            {text(copy, 'policy.label')}
          </label>
          <p className="field__help" id="policy-number__help">
            {text(copy, 'policy.hint')}
          </p>
          {error && (
            <p className="field__error" id="policy-number__error">
              <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
              {error}
            </p>
          )}
          <input
            id="policy-number"
            className="text-input"
            autoComplete="off"
            value={number}
            aria-invalid={error ? true : undefined}
            aria-describedby={`policy-number__help${error ? ' policy-number__error' : ''}`}
            onChange={(e) => setNumber(e.target.value)}
          />
        </div>
        <div className="dialog__actions">
          <button type="submit" className="button" disabled={checking}>
            {checking ? text(copy, 'button.saving') : text(copy, 'policy.check')}
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {text(copy, 'button.cancel')}
          </button>
        </div>
      </form>
    </dialog>,
    document.body,
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
            onEdit({ form: 'referral_code', call: view.edits.referral_code.submit ?? '/api/ownerdetail', answers })
          }
        />
      )}
    </div>
  );
}
