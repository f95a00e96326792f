/**
 * The assumptions page, "Just before you pay..." (journey.md §2 Assumptions; §4 Assumptions and
 * health questions, Pre-existing conditions, Policy start date): per pet, what we assume as a
 * list of answers with the tick "Yes, they're correct" and "No, change assumptions", which opens
 * the questions in a modal; the pre-existing conditions prompt for a referred pet; the cover
 * start date with its modal; and Go to payment.
 */
import type { RJSFSchema } from '@rjsf/utils';
import { retrieveSchema } from '@rjsf/utils';
import { useEffect, useMemo, useState } from 'react';

import { EditDialog, petQuestions, propertySchema } from '@/features/form/EditDialog';
import { ErrorSummary, focusField } from '@/features/form/ErrorSummary';
import { validateAnswers } from '@/features/form/FormStep';
import { RemovePetDialog } from '@/features/form/RemovePetDialog';
import { preExistingReferred } from '@/shared/pets';
import { schemaValidator } from '@/features/form/schema-validator';
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import type { EditRequest } from '@/features/journey/journey-machine';
import { text } from '@/shared/copy';
import type { FieldMessage, QuestionsView, ViewData } from '@/shared/types';
import './assumptions.css';

type Pet = Record<string, unknown>;
type Answers = Record<string, unknown>;

type Modal = { kind: 'assumptions' | 'pre_existing'; pet: number } | { kind: 'start_date' } | null;

/**
 * The answers the page holds: the stored ones, with what we assume (each question's `default`)
 * where nothing is stored yet, for the questions this pet is asked.
 */
function withDefaults(questions: QuestionsView): Answers {
  const { item } = petQuestions(questions);
  const stored = (questions.answers.pets as Pet[] | undefined) ?? [];
  const pets = stored.map((pet) => {
    const next: Pet = { ...pet };
    for (const name of askedOf(questions, pet, true)) {
      const dflt = propertySchema(item, name)?.default;
      if (next[name] === undefined && dflt !== undefined) next[name] = dflt;
    }
    return next;
  });
  return { ...questions.answers, pets };
}

/** The questions asked of this pet, in their order: the item schema resolved for its answers. */
function askedOf(questions: QuestionsView, pet: Pet, includeHidden = false): string[] {
  const { item, ui } = petQuestions(questions);
  const resolved = retrieveSchema(schemaValidator, item as RJSFSchema, questions.schema as RJSFSchema, pet);
  const declared = Object.keys(resolved.properties ?? {});
  const order = (ui['ui:order'] as unknown as string[] | undefined) ?? declared;
  const shown = (name: string) => includeHidden || (ui[name]?.['ui:widget'] !== 'hidden' && ui[name]?.['ui:widget'] !== 'confirmTick');
  const ordered = order.includes('*') ? [...order.filter((n) => n !== '*'), ...declared.filter((n) => !order.includes(n))] : order;
  return ordered.filter((name) => declared.includes(name) && shown(name));
}

function answerText(ui: Record<string, unknown> | undefined, schema: Record<string, unknown> | undefined, value: unknown): string {
  const names = ui?.['ui:enumNames'] as string[] | undefined;
  const values = (schema?.enum as unknown[] | undefined) ?? ['yes', 'no'];
  const i = values.indexOf(value);
  return names && i >= 0 ? names[i] : String(value ?? '');
}

export function AssumptionsStep({
  view,
  copy,
  serverErrors,
  submissions,
  editErrors,
  editSubmissions,
  busy,
  onSubmit,
  onEdit,
  onRemovePet,
}: {
  view: ViewData;
  copy: Record<string, string>;
  serverErrors: readonly FieldMessage[];
  submissions: number;
  editErrors: readonly FieldMessage[];
  editSubmissions: number;
  busy: boolean;
  onSubmit: (answers: Answers) => void;
  onEdit: (request: EditRequest) => void;
  onRemovePet: (id: number) => void;
}) {
  const questions = view.questions as QuestionsView;
  const [answers, setAnswers] = useState<Answers>(() => withDefaults(questions));
  const [clientErrors, setClientErrors] = useState<FieldMessage[]>([]);
  const [attempts, setAttempts] = useState(0);
  const [modal, setModal] = useState<Modal>(null);
  const [removing, setRemoving] = useState<number | null>(null);
  const errors = clientErrors.length > 0 ? clientErrors : serverErrors;
  const pets = (answers.pets as Pet[] | undefined) ?? [];
  const { item, ui } = petQuestions(questions);
  const errorOf = useMemo(() => new Map(errors.map((e) => [e.field, e.message])), [errors]);
  // Questions a pet has no answer to yet (an aggregator quote's injury or illness, which the
  // comparison site does not ask): asked here, on the page, rather than left blank until the
  // customer finds the change-assumptions modal. Fixed at load, so the radios stay as answered.
  const [askedHere] = useState<Set<string>>(() => {
    const out = new Set<string>();
    pets.forEach((pet, i) => askedOf(questions, pet).forEach((q) => pet[q] === undefined && out.add(`${i}:${q}`)));
    return out;
  });

  function answer(index: number, question: string, value: unknown) {
    setAnswers((a) => {
      const list = [...((a.pets as Pet[]) ?? [])];
      list[index] = { ...list[index], [question]: value };
      return { ...a, pets: list };
    });
  }

  useEffect(() => {
    if (errors.length > 0) focusField(errors[0].field);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempts, submissions]);

  function tick(index: number, on: boolean) {
    setAnswers((a) => {
      const list = [...((a.pets as Pet[]) ?? [])];
      const next = { ...list[index] };
      if (on) next.assumptions_correct = true;
      else delete next.assumptions_correct;
      list[index] = next;
      return { ...a, pets: list };
    });
  }

  function submit() {
    const found = validateAnswers(questions, answers, copy);
    // journey.md §5: the tick must be given for every pet ("Please confirm the assumptions are
    // correct"); the server's rule says the same, this saves the round trip.
    pets.forEach((pet, i) => {
      if (pet.assumptions_correct !== true && !found.some((f) => f.field === `pets[${i}].assumptions_correct`)) {
        found.push({ field: `pets[${i}].assumptions_correct`, message: text(copy, 'assumptions.confirm.required') });
      }
    });
    setClientErrors(found);
    setAttempts((n) => n + 1);
    if (found.length === 0) onSubmit(answers);
  }

  const storedPets = view.pets;
  const nameOf = (i: number) => String(storedPets[i]?.pet_name ?? pets[i]?.pet_name ?? '');
  const edits = view.edits;

  return (
    <div className="assumptions">
      <p className="lead">{text(copy, 'assumptions.intro')}</p>
      <ErrorSummary errors={errors} pets={pets} ui={questions.ui} copy={copy} />
      {pets.map((pet, i) => {
        const name = nameOf(i);
        const headingId = `assumptions-${i}-heading`;
        const tickId = `root_pets_${i}_assumptions_correct`;
        const tickError = errorOf.get(`pets[${i}].assumptions_correct`);
        const stored = storedPets[i] ?? {};
        const referred = preExistingReferred(view, i);
        const detailsAdded = typeof stored.vet_name === 'string' || stored.provide_vet_later === true;
        return (
          <section className="assumption-pet card" aria-labelledby={headingId} key={String(stored.original_id ?? i)}>
            <h2 id={headingId} className="pet__heading">
              {text(copy, 'assumptions.pet_heading', { petName: name })}
            </h2>
            <dl className="summary">
              {askedOf(questions, pet).map((q) => {
                const qUi = ui[q];
                const warning = ((qUi?.['ui:options'] as Record<string, unknown> | undefined)?.warnings as Record<string, string> | undefined)?.[String(pet[q])];
                const qError = errorOf.get(`pets[${i}].${q}`);
                const labelId = `assumption-${i}-${q}`;
                if (askedHere.has(`${i}:${q}`)) {
                  const schema = propertySchema(item, q);
                  const values = (schema?.enum as unknown[] | undefined) ?? ['yes', 'no'];
                  const names = qUi?.['ui:enumNames'] as string[] | undefined;
                  return (
                    <div className="summary__row summary__row--ask" key={q} data-field={`pets[${i}].${q}`}>
                      <dt id={labelId}>{String(qUi?.['ui:title'] ?? q)}</dt>
                      <dd>
                        <div className="choice__options choice__options--inline" role="radiogroup" aria-labelledby={labelId} aria-invalid={qError ? true : undefined}>
                          {values.map((v, k) => (
                            <div className="choice__option" key={String(v)}>
                              <input
                                type="radio"
                                id={`assumed_pets_${i}_${q}-${k}`}
                                name={`assumed_pets_${i}_${q}`}
                                checked={pet[q] === v}
                                onChange={() => answer(i, q, v)}
                              />
                              <label htmlFor={`assumed_pets_${i}_${q}-${k}`}>{names?.[k] ?? String(v)}</label>
                            </div>
                          ))}
                        </div>
                      </dd>
                      {warning && <dd className="summary__warning">{text(copy, warning)}</dd>}
                      {qError && <dd className="field__error summary__error">{qError}</dd>}
                    </div>
                  );
                }
                return (
                  <div className="summary__row" key={q} data-field={`pets[${i}].${q}`}>
                    <dt>{String(qUi?.['ui:title'] ?? q)}</dt>
                    <dd>{answerText(qUi, propertySchema(item, q), pet[q])}</dd>
                    {warning && <dd className="summary__warning">{text(copy, warning)}</dd>}
                    {qError && <dd className="field__error summary__error">{qError}</dd>}
                  </div>
                );
              })}
            </dl>
            {referred && edits.pre_existing && (
              <div className={`panel ${detailsAdded ? 'panel--info' : 'panel--warning'}`}>
                <p>{text(copy, detailsAdded ? 'pre_existing.added' : 'pre_existing.prompt', { petName: name })}</p>
                <button type="button" className="button button--secondary" onClick={() => setModal({ kind: 'pre_existing', pet: i })}>
                  {text(copy, detailsAdded ? 'pre_existing.edit' : 'pre_existing.add')}
                  <span className="visually-hidden"> – {name}</span>
                </button>
              </div>
            )}
            <div className={`confirm-tick${tickError ? ' field--error' : ''}`} data-field={`pets[${i}].assumptions_correct`}>
              {tickError && (
                <p className="field__error" id={`${tickId}__error`}>
                  <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
                  {tickError}
                </p>
              )}
              <div className="checkbox">
                <input
                  type="checkbox"
                  id={tickId}
                  checked={pet.assumptions_correct === true}
                  aria-invalid={tickError ? true : undefined}
                  aria-describedby={tickError ? `${tickId}__error` : undefined}
                  onChange={(e) => tick(i, e.target.checked)}
                />
                <label htmlFor={tickId}>
                  {String(ui.assumptions_correct?.['ui:title'] ?? text(copy, 'assumptions.confirm.label'))}
                  <span className="visually-hidden"> – {name}</span>
                </label>
              </div>
            </div>
            {edits.assumptions && (
              <button type="button" className="link-button" onClick={() => setModal({ kind: 'assumptions', pet: i })}>
                {text(copy, 'assumptions.change')}
                <span className="visually-hidden"> – {name}</span>
              </button>
            )}
          </section>
        );
      })}
      {edits.start_date && (
        <section className="card start-date" aria-labelledby="start-date-heading">
          <h2 id="start-date-heading" className="pet__heading">
            {text(copy, 'start_date.title')}
          </h2>
          <p>{text(copy, 'start_date.current', { date: ukDate(view.start_date.chosen) })}</p>
          <button type="button" className="button button--secondary" onClick={() => setModal({ kind: 'start_date' })}>
            {text(copy, 'start_date.change')}
          </button>
        </section>
      )}
      <div className="actions">
        <button type="button" className="button" disabled={busy} onClick={submit}>
          {busy ? text(copy, 'button.saving') : text(copy, 'button.go_to_payment')}
        </button>
      </div>
      {modal?.kind === 'assumptions' && edits.assumptions && (
        <EditDialog
          questions={{ ...edits.assumptions, answers: withDefaults(edits.assumptions) }}
          title={text(copy, 'assumptions.edit.title', { petName: nameOf(modal.pet) })}
          onlyPet={modal.pet}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => setModal(null)}
          onRemovePet={(index) => {
            setModal(null);
            setRemoving(index);
          }}
          onSave={(a) =>
            onEdit({
              form: edits.assumptions?.id ?? '',
              call: edits.assumptions?.submit ?? '',
              answers: a,
            })
          }
        />
      )}
      {modal?.kind === 'pre_existing' && edits.pre_existing && (
        <EditDialog
          questions={edits.pre_existing}
          title={text(copy, 'pre_existing.title', { petName: nameOf(modal.pet) })}
          onlyPet={modal.pet}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => setModal(null)}
          onSave={(a) => onEdit({ form: edits.pre_existing?.id ?? '', call: edits.pre_existing?.submit ?? '', answers: a, notice: 'pre_existing.saved' })}
        />
      )}
      {modal?.kind === 'start_date' && edits.start_date && (
        <EditDialog
          questions={{ ...edits.start_date, answers: { owner: { pet_policy_start_date: view.start_date.chosen } } }}
          title={text(copy, 'start_date.title')}
          copy={copy}
          view={view}
          serverErrors={editErrors}
          submissions={editSubmissions}
          busy={busy}
          onCancel={() => setModal(null)}
          onSave={(a) => onEdit({ form: edits.start_date?.id ?? '', call: edits.start_date?.submit ?? '', answers: a, notice: 'start_date.saved' })}
        />
      )}
      <RemovePetDialog
        name={removing === null ? null : nameOf(removing)}
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


