/**
 * The assumptions page, "Just before you pay..." (journey.md §2 Assumptions; §4 Assumptions and
 * health questions, Pre-existing conditions, Policy start date): per pet, what we assume as a
 * list of answers with the tick "Yes, they're correct" and "No, change assumptions", which opens
 * the questions in a modal; the pre-existing conditions prompt for a referred pet; the cover
 * start date with its modal; and Go to payment.
 */
import { useEffect, useMemo, useState } from 'react';

import { ErrorSummary, focusField } from '@/features/form/ErrorSummary';
import { validateAnswers } from '@/features/form/FormStep';
import { RemovePetDialog } from '@/features/form/RemovePetDialog';
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import type { EditRequest } from '@/features/journey/journey-machine';
import { text } from '@/shared/copy';
import type { FieldMessage, QuestionsView, ViewData } from '@/shared/types';
import { AssumptionModals } from './AssumptionModals';
import { AssumptionPet } from './AssumptionPet';
import { type Answers, type Modal, type Pet, askedOf, withDefaults } from './assumptions';
import './assumptions.css';

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
      {pets.map((pet, i) => (
        <AssumptionPet
          key={String(storedPets[i]?.original_id ?? i)}
          view={view}
          copy={copy}
          pet={pet}
          index={i}
          name={nameOf(i)}
          errorOf={errorOf}
          askedHere={askedHere}
          onAnswer={answer}
          onTick={tick}
          onModal={setModal}
        />
      ))}
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
      <AssumptionModals
        view={view}
        copy={copy}
        modal={modal}
        busy={busy}
        editErrors={editErrors}
        editSubmissions={editSubmissions}
        nameOf={nameOf}
        onEdit={onEdit}
        onClose={() => setModal(null)}
        onRemove={(index) => {
          setModal(null);
          setRemoving(index);
        }}
      />
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


