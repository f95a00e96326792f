/**
 * The pet portal password form (owner-payment.md §2 Confirmation page, §5 Portal password):
 * password and re-entry, a live checklist (length, number, capital, lowercase, special
 * character) read from the same schema the server checks, the spec's messages, and on success
 * the success message in place of the form.
 */
import { useMemo, useState } from 'react';

import { ErrorSummary, focusField } from '@/features/form/ErrorSummary';
import { validateAnswers } from '@/features/form/FormStep';
import { submitAnswers } from '@/features/journey/api';
import { text } from '@/shared/copy';
import type { FieldMessage, QuestionsView, ViewData } from '@/shared/types';
import './confirmation.css';

/** The checklist: each item the copy key a schema rule under `password` gives as its message. */
const CHECKS: Array<[string, string[]]> = [
  ['portal.check.length', ['portal.password.short', 'portal.password.long']],
  ['portal.check.digit', ['portal.password.digit']],
  ['portal.check.upper', ['portal.password.upper']],
  ['portal.check.lower', ['portal.password.lower']],
  ['portal.check.special', ['portal.password.special']],
];

type Rule = { minLength?: number; maxLength?: number; pattern?: string; 'x-errors'?: Record<string, string> };

/** Whether a password meets each of the schema's rules, by the rule's message key. */
function passes(questions: QuestionsView, password: string): Map<string, boolean> {
  const rules = (((questions.schema.properties as Record<string, { allOf?: Rule[] }>)?.password?.allOf ?? []) as Rule[]);
  const out = new Map<string, boolean>();
  for (const rule of rules) {
    const key = Object.values(rule['x-errors'] ?? {})[0];
    if (!key) continue;
    let ok = true;
    if (rule.minLength !== undefined) ok = ok && [...password].length >= rule.minLength;
    if (rule.maxLength !== undefined) ok = ok && [...password].length <= rule.maxLength;
    if (rule.pattern !== undefined) ok = ok && new RegExp(rule.pattern, 'u').test(password);
    out.set(key, ok);
  }
  return out;
}

export function PortalPasswordForm({ view, copy, onSaved }: { view: ViewData; copy: Record<string, string>; onSaved: () => void }) {
  const questions = view.edits.portal_password;
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [errors, setErrors] = useState<FieldMessage[]>([]);
  const [busy, setBusy] = useState(false);
  const state = useMemo(() => (questions ? passes(questions, password) : new Map<string, boolean>()), [questions, password]);
  if (!questions) return null;
  const errorOf = (field: string) => errors.find((e) => e.field === field)?.message;

  async function save() {
    if (!questions) return;
    const answers = { password, password_confirmation: again };
    const found = validateAnswers(questions, answers, copy);
    if (found.length === 0 && password !== again) found.push({ field: 'password_confirmation', message: text(copy, 'portal.password.mismatch') });
    setErrors(found);
    if (found.length > 0) {
      focusField(found[0].field);
      return;
    }
    setBusy(true);
    const result = await submitAnswers(questions.submit ?? '', view.csrf, { email: String(view.owner.email_address ?? ''), ...answers });
    setBusy(false);
    if (result.kind === 'ok') onSaved();
    else if (result.kind === 'invalid') {
      setErrors(result.errors);
      if (result.errors[0]) focusField(result.errors[0].field);
    } else setErrors([{ field: 'password', message: text(copy, 'toast.generic.body') }]);
  }

  const field = (name: 'password' | 'password_confirmation', label: string, value: string, set: (v: string) => void) => {
    const error = errorOf(name);
    const id = `portal-${name}`;
    return (
      <div className={`field${error ? ' field--error' : ''}`} data-field={name}>
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
        {error && (
          <p className="field__error" id={`${id}__error`}>
            <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
            {error}
          </p>
        )}
        <input
          id={id}
          type="password"
          className="text-input"
          autoComplete="new-password"
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={[error ? `${id}__error` : '', name === 'password' ? 'portal-checklist' : ''].filter(Boolean).join(' ') || undefined}
          onChange={(e) => set(e.target.value)}
        />
      </div>
    );
  };

  return (
    <section className="card" aria-labelledby="portal-heading">
      <h2 id="portal-heading" className="pet__heading">
        {text(copy, 'portal.heading')}
      </h2>
      <p>{text(copy, 'portal.body', { email: String(view.owner.email_address ?? '') })}</p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <ErrorSummary errors={errors} pets={[]} ui={questions.ui} copy={copy} />
        {field('password', String((questions.ui.password as Record<string, unknown> | undefined)?.['ui:title'] ?? ''), password, setPassword)}
        <ul className="checklist" id="portal-checklist" aria-live="polite">
          {CHECKS.map(([label, keys]) => {
            const ok = password !== '' && keys.every((k) => state.get(k) !== false);
            return (
              <li key={label} className={ok ? 'checklist__ok' : undefined}>
                <span aria-hidden="true">{ok ? '✓' : '○'}</span> {text(copy, label)}
                <span className="visually-hidden">{ok ? ` – ${text(copy, 'portal.check.met')}` : ''}</span>
              </li>
            );
          })}
        </ul>
        {field('password_confirmation', String((questions.ui.password_confirmation as Record<string, unknown> | undefined)?.['ui:title'] ?? ''), again, setAgain)}
        <div className="actions">
          <button type="submit" className="button" disabled={busy}>
            {busy ? text(copy, 'button.saving') : text(copy, 'portal.save')}
          </button>
        </div>
      </form>
    </section>
  );
}
