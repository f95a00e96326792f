/**
 * A generic form step: rjsf draws the step's questions from the schema and UI hints the server
 * sent. Validation before submit interprets that very schema (json-schema.ts); field errors
 * from the server land on the same fields through the same path.
 */
import Form from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import type { RegistryWidgetsType, RJSFSchema } from '@rjsf/utils';
import { type ReactNode, useEffect, useMemo, useState } from 'react';

import { RemovePetDialog } from './RemovePetDialog';
import { PetActionsContext } from './pet-actions';

import { type Breed, breedIndex, useBreeds } from '@/features/breeds/breed-store';
import { BreedsContext, cannotInsure } from '@/features/breeds/breeds-context';
import { followAnswers } from '@/features/breeds/dependent-answers';
import { text } from '@/shared/copy';
import type { Notice } from '@/features/journey/journey-machine';
import type { FieldMessage, QuestionsView } from '@/shared/types';
import { ErrorSummary, focusField } from './ErrorSummary';
import { namedQuestions } from './named-questions';
import { CopyContext, FieldErrorsContext, toErrorMap } from './field-errors';
import { validate } from './json-schema';
import { fieldMessages } from './messages';
import { schemaValidator } from './schema-validator';
import { ArrayFieldItemTemplate, ArrayFieldTemplate, FieldTemplate, ObjectFieldTemplate } from './templates';
import { BreedSearchWidget } from './widgets/BreedSearchWidget';
import { ChoiceWidget } from './widgets/ChoiceWidget';
import { ConfirmTickWidget } from './widgets/ConfirmTickWidget';
import { CurrencyWidget } from './widgets/CurrencyWidget';
import { DatePartsWidget } from './widgets/DatePartsWidget';
import { HiddenWidget, TextWidget } from './widgets/TextWidget';
import { XlBullyWidget } from './widgets/XlBullyWidget';
import { onDemandWidgets } from './widgets/on-demand';

/** Every widget a question set can name; modals use the same ones. */
export const widgets: RegistryWidgetsType = {
  TextWidget: TextWidget,
  RadioWidget: ChoiceWidget,
  radio: ChoiceWidget,
  yesNo: ChoiceWidget,
  dateParts: DatePartsWidget,
  currency: CurrencyWidget,
  breedSearch: BreedSearchWidget,
  xlBully: XlBullyWidget,
  confirmTick: ConfirmTickWidget,
  checkbox: ConfirmTickWidget,
  CheckboxWidget: ConfirmTickWidget,
  hidden: HiddenWidget,
  HiddenWidget: HiddenWidget,
  // The owner, payment and rehoming pages' own widgets: loaded with the views that name them.
  ...onDemandWidgets,
};

const templates = {
  FieldTemplate,
  ObjectFieldTemplate,
  ArrayFieldTemplate,
  ArrayFieldItemTemplate,
  ButtonTemplates: { SubmitButton: () => null },
};

type Answers = Record<string, unknown>;
/** Validates the answers against the step's schema, one message per field. */
export function validateAnswers(questions: QuestionsView, answers: Answers, copy: Record<string, string>): FieldMessage[] {
  return fieldMessages(questions.schema, validate(questions.schema, answers), copy);
}

/** Whether the form is where pets are added (the pet details forms), the only forms whose pets fold. */
function addsPets(questions: QuestionsView): boolean {
  const options = (questions.ui.pets as Record<string, unknown> | undefined)?.['ui:options'] as Record<string, unknown> | undefined;
  return typeof options?.addItemLabel === 'string';
}

/** The pets whose questions are all answered and valid, and that can be insured. */
function finishedPets(questions: QuestionsView, answers: Answers, copy: Record<string, string>, byId: Map<string, Breed>): Set<number> {
  const pets = (answers.pets as Answers[] | undefined) ?? [];
  if (pets.length === 0) return new Set();
  const errors = validateAnswers(questions, answers, copy);
  return new Set(
    pets.flatMap((pet, i) => (errors.some((e) => e.field.startsWith(`pets[${i}]`)) || cannotInsure(pet, byId) !== null ? [] : [i])),
  );
}

/**
 * The tab's copy of pets not saved yet (journey.md §4: a reload, or a phone discarding the tab
 * while the owner looks up a date of birth, loses nothing). Only the pets the server holds no
 * answers for are taken from it; a value longer than a typed answer (a certificate's contents)
 * is never kept, and a draft that does not fit is dropped.
 */
const DRAFT_PREFIX = 'pawpath.pets.';
const DRAFT_MAX_CHARS = 20_000;
const DRAFT_MAX_VALUE_CHARS = 500;

function withDraft(answers: Answers, key: string): Answers {
  let draft: unknown;
  try {
    draft = JSON.parse(sessionStorage.getItem(DRAFT_PREFIX + key) ?? 'null');
  } catch {
    return answers;
  }
  if (!Array.isArray(draft)) return answers;
  const stored = Array.isArray(answers.pets) ? (answers.pets as Answers[]) : [];
  const blank = (pet: Answers | undefined) => !pet || typeof pet.pet_type !== 'string' || pet.pet_type === '';
  const pets = stored.map((pet, i) => (blank(pet) && isAnswers(draft[i]) ? draft[i] : pet));
  // A pet typed in this tab after the last one the server holds.
  for (let i = stored.length; i < Math.min(draft.length, 10); i++) if (isAnswers(draft[i])) pets.push(draft[i]);
  return { ...answers, pets };
}

function isAnswers(value: unknown): value is Answers {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function saveDraft(key: string, answers: Answers) {
  const pets = Array.isArray(answers.pets) ? (answers.pets as Answers[]) : [];
  const kept = pets.map((pet) =>
    Object.fromEntries(Object.entries(pet ?? {}).filter(([, v]) => typeof v !== 'string' || v.length <= DRAFT_MAX_VALUE_CHARS)),
  );
  const json = JSON.stringify(kept);
  try {
    if (json.length <= DRAFT_MAX_CHARS) sessionStorage.setItem(DRAFT_PREFIX + key, json);
    else sessionStorage.removeItem(DRAFT_PREFIX + key);
  } catch {
    // A tab that keeps nothing (storage full or refused) loses only what it would have kept.
  }
}

function clearDraft(key: string) {
  try {
    sessionStorage.removeItem(DRAFT_PREFIX + key);
  } catch {
    // As above.
  }
}

/**
 * A new pet's section opens at its first question: rjsf draws the new section a frame or two
 * after the form data changes, so wait for it.
 */
function useFocusNewPet(focusPet: number | null, setFocusPet: (pet: number | null) => void) {
  useEffect(() => {
    if (focusPet === null) return;
    let frames = 0;
    let handle = 0;
    const tryFocus = () => {
      const input = document.getElementById(`root_pets_${focusPet}_pet_name`);
      if (input) {
        input.focus();
        setFocusPet(null);
      } else if (frames++ < 30) {
        handle = requestAnimationFrame(tryFocus);
      }
    };
    // From the next frame: after the page's own focus on a new view.
    handle = requestAnimationFrame(tryFocus);
    return () => cancelAnimationFrame(handle);
  }, [focusPet, setFocusPet]);
}

/** Several fields of an object set at once (an empty one removed): the address search fills the owner's address. */
function withFields(answers: Answers, objectKey: string, fields: Record<string, unknown>): Answers {
  const next: Answers = { ...((answers[objectKey] as Answers | undefined) ?? {}) };
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || v === '') delete next[k];
    else next[k] = v;
  }
  return { ...answers, [objectKey]: next };
}

export function FormStep({
  questions,
  copy,
  serverErrors,
  submissions,
  busy,
  submitLabel,
  onSubmit,
  storedPets,
  onRemoveStoredPet,
  onNotice,
  beforeActions,
  secondaryAction,
  onSaveAndAddPet,
  draftKey,
  petAdded = false,
  submitDescribedBy,
}: {
  questions: QuestionsView;
  copy: Record<string, string>;
  serverErrors: readonly FieldMessage[];
  submissions: number;
  busy: boolean;
  submitLabel: string;
  onSubmit: (answers: Answers) => void;
  /** How many pets the server holds: removing one of those goes through the server. */
  storedPets: number;
  onRemoveStoredPet: (id: number) => void;
  /** Shows a toast (copy keys), for widgets that report through one (the address search). */
  onNotice?: (notice: Notice) => void;
  /**
   * Shown after the questions, before the step's button (the codes on the owner details page;
   * the payment page's notices, which follow the answers as they are given).
   */
  beforeActions?: ReactNode | ((answers: Answers) => ReactNode);
  /** A second action beside the step's button (the payment page's Back). */
  secondaryAction?: ReactNode;
  /**
   * "Add another pet" saves the pets first (journey.md §4 Add another pet), with the answers
   * checked as a submission's are; without it a pet is added to the form only.
   */
  onSaveAndAddPet?: (answers: Answers) => void;
  /** Where the tab keeps the answers of pets not saved yet (sessionStorage), on the forms that add pets. */
  draftKey?: string;
  /** A pet was just added: its first question takes the focus. */
  petAdded?: boolean;
  /** The id of what the step's button does, said beside it (the payment page's "nothing is taken yet"). */
  submitDescribedBy?: string;
}) {
  const keepsDraft = draftKey !== undefined && addsPets(questions);
  const [formData, setFormData] = useState<Answers>(() => (keepsDraft ? withDraft(questions.answers, draftKey) : questions.answers));
  useEffect(() => {
    if (keepsDraft) saveDraft(draftKey, formData);
  }, [keepsDraft, draftKey, formData]);
  const ui = useMemo(() => namedQuestions(questions.ui, copy), [questions.ui, copy]);
  const [clientErrors, setClientErrors] = useState<FieldMessage[]>([]);
  const [attempts, setAttempts] = useState(0);
  const errors = clientErrors.length > 0 ? clientErrors : serverErrors;
  const errorMap = useMemo(() => toErrorMap(errors), [errors]);
  const lists = useBreeds();
  const breeds = useMemo(() => ({ lists, byId: lists ? breedIndex(lists) : new Map() }), [lists]);
  const pets = (formData.pets as Array<Record<string, unknown>> | undefined) ?? [];
  const [removing, setRemoving] = useState<number | null>(null);
  const [focusPet, setFocusPet] = useState<number | null>(() => (petAdded && pets.length > 0 ? pets.length - 1 : null));
  // With more than one pet, a finished pet folds to a summary with Edit: the pets a
  // customer already described on an earlier visit start folded, and each finished pet folds as
  // the next one is added.
  const [folded, setFolded] = useState<ReadonlySet<number>>(() => {
    const stored = (questions.answers.pets as Answers[] | undefined) ?? [];
    return stored.length > 1 && addsPets(questions) ? finishedPets(questions, questions.answers, copy, breeds.byId) : new Set();
  });
  const petActions = useMemo(
    () => ({
      add: () => {
        if (onSaveAndAddPet) {
          if (check(formData)) onSaveAndAddPet(formData);
          return;
        }
        setFolded((before) => new Set([...before, ...finishedPets(questions, formData, copy, breeds.byId)]));
        setFormData((d) => {
          const list = Array.isArray(d.pets) ? (d.pets as Answers[]) : [];
          setFocusPet(list.length);
          return { ...d, pets: [...list, {}] };
        });
      },
      askRemove: (index: number) => setRemoving(index),
      edit: (index: number) => {
        setFolded((before) => new Set([...before].filter((i) => i !== index)));
        setFocusPet(index);
      },
      // A pet with an error, or the only pet left, is never folded.
      folded: new Set(
        pets.length > 1 ? [...folded].filter((i) => i < pets.length && !errors.some((e) => e.field.startsWith(`pets[${i}]`))) : [],
      ) as ReadonlySet<number>,
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [questions, formData, copy, breeds.byId, folded, pets.length, errors, onSaveAndAddPet],
  );
  useFocusNewPet(focusPet, setFocusPet);

  function confirmRemove() {
    if (removing === null) return;
    const index = removing;
    setRemoving(null);
    if (index < storedPets) {
      // The tab's copy follows: the pets after it move up a place.
      if (keepsDraft) saveDraft(draftKey, { ...formData, pets: pets.filter((_, i) => i !== index) });
      onRemoveStoredPet(index + 1);
    } else {
      // A pet added on this page and not saved yet leaves the form only.
      setFormData((d) => ({ ...d, pets: (d.pets as Answers[]).filter((_, i) => i !== index) }));
      setFolded((before) => new Set([...before].filter((i) => i !== index).map((i) => (i > index ? i - 1 : i))));
      setClientErrors([]);
    }
  }
  const removingName = removing === null ? null : String(pets[removing]?.pet_name ?? '').trim() || text(copy, 'remove_pet.unnamed');

  // journey.md §4: a banned breed or an XL Bully "yes" disables saving.
  const refused = pets.some((pet) => cannotInsure(pet, breeds.byId) !== null);

  // After every failed attempt, whether the browser or the server found the problem, the
  // first invalid field takes the focus (journey.md §2 Error summary).
  useEffect(() => {
    if (errors.length > 0) focusField(errors[0].field);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempts, submissions]);

  /** Checks the answers as the server will: the errors are shown and the first invalid field focused. */
  function check(answers: Answers): boolean {
    const found = validateAnswers(questions, answers, copy);
    setClientErrors(found);
    setAttempts((n) => n + 1);
    return found.length === 0;
  }

  function submit(answers: Answers) {
    if (!check(answers)) return;
    if (keepsDraft) clearDraft(draftKey);
    onSubmit(answers);
  }

  return (
    <CopyContext.Provider value={copy}>
      <BreedsContext.Provider value={breeds}>
      <PetActionsContext.Provider value={petActions}>
      <FieldErrorsContext.Provider value={errorMap}>
        <ErrorSummary errors={errors} pets={(formData.pets as Array<Record<string, unknown>>) ?? []} ui={questions.ui} copy={copy} />
        <Form
          schema={questions.schema as RJSFSchema}
          uiSchema={ui}
          formData={formData}
          formContext={{
            formData,
            notify: onNotice,
            /** Sets several fields of an object at once (the address search fills the owner's address). */
            setFields: (objectKey: string, fields: Record<string, unknown>) => setFormData((d) => withFields(d, objectKey, fields)),
          }}
          validator={schemaValidator}
          widgets={widgets}
          templates={templates}
          noValidate
          noHtml5Validate
          showErrorList={false}
          // A `const` is a rule, not an answer: a tick the customer must give is never pre-ticked.
          experimental_defaultFormStateBehavior={{ constAsDefaults: 'never' }}
          onChange={(e: IChangeEvent<Answers>) => setFormData((before) => followAnswers(questions.ui, before, e.formData ?? {}))}
          onSubmit={(e: IChangeEvent<Answers>) => submit(e.formData ?? {})}
        >
          {typeof beforeActions === 'function' ? beforeActions(formData) : beforeActions}
          <div className="actions">
            <button type="submit" className="button" disabled={busy || refused} aria-describedby={submitDescribedBy}>
              {busy ? text(copy, 'button.saving') : submitLabel}
            </button>
            {secondaryAction}
          </div>
        </Form>
      </FieldErrorsContext.Provider>
      <RemovePetDialog name={removingName} copy={copy} onConfirm={confirmRemove} onCancel={() => setRemoving(null)} />
      </PetActionsContext.Provider>
      </BreedsContext.Provider>
    </CopyContext.Provider>
  );
}
