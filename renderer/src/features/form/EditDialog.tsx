/**
 * A modal that edits part of the quote in place (a step's `edits`): the assumptions, a pet's
 * pre-existing conditions, the cover start date. rjsf draws the question set the server sent;
 * the same precompiled validator as every form checks it before saving; the server's field
 * errors come back onto the same fields. A native modal dialog: focus stays inside, Escape
 * cancels, focus returns to where it was.
 */
import Form from '@rjsf/core';
import type { IChangeEvent } from '@rjsf/core';
import type { RegistryWidgetsType, RJSFSchema } from '@rjsf/utils';
import { useEffect, useMemo, useState } from 'react';

import { breedIndex, useBreeds } from '@/features/breeds/breed-store';
import { BreedsContext } from '@/features/breeds/breeds-context';
import { followAnswers } from '@/features/breeds/dependent-answers';
import { Modal } from '@/features/shell/Modal';

import { text } from '@/shared/copy';
import type { FieldMessage, QuestionsView, ViewData } from '@/shared/types';
import { namedQuestions } from './named-questions';
import { ErrorSummary, focusField } from './ErrorSummary';
import { CopyContext, FieldErrorsContext, toErrorMap } from './field-errors';
import { validateAnswers, widgets as formWidgets } from './FormStep';
import { schemaValidator } from './schema-validator';
import { withSetsOnPet } from './sets-on-pet';
import { ArrayFieldItemTemplate, ArrayFieldTemplate, FieldTemplate, ObjectFieldTemplate } from './templates';
import { ChoiceWidget, refusalOf } from './widgets/ChoiceWidget';
import { ConfirmTickWidget } from './widgets/ConfirmTickWidget';
import { StartDateWidget } from './widgets/StartDateWidget';
import { HiddenWidget, TextWidget } from './widgets/TextWidget';
import { TextareaWidget } from './widgets/TextareaWidget';
import { VetSearchWidget } from './widgets/VetSearchWidget';
import './form.css';

type Answers = Record<string, unknown>;
type Pet = Record<string, unknown>;

const widgets: RegistryWidgetsType = {
  ...formWidgets,
  TextWidget,
  RadioWidget: ChoiceWidget,
  radio: ChoiceWidget,
  yesNo: ChoiceWidget,
  confirmTick: ConfirmTickWidget,
  hidden: HiddenWidget,
  HiddenWidget,
  textarea: TextareaWidget,
  TextareaWidget,
  vetSearch: VetSearchWidget,
  startDate: StartDateWidget,
};

const templates = {
  FieldTemplate,
  ObjectFieldTemplate,
  ArrayFieldTemplate,
  ArrayFieldItemTemplate,
  ButtonTemplates: { SubmitButton: () => null },
};

/** A field that draws nothing: a modal that shows part of a question set keeps the rest as stored. */
const fields = { nothing: () => null };

/**
 * The UI hints of a question set over `owner` showing only `shown` (the review page's owner
 * modals: address only, the full details, add a phone number). The other answers are still
 * sent, as stored, so the whole owner is checked as one.
 */
export function onlyOwnerFields(questions: QuestionsView, shown: readonly string[]): Record<string, unknown> {
  const ui = { ...questions.ui } as Record<string, Record<string, unknown>>;
  const owner = { ...(ui.owner ?? {}) } as Record<string, unknown>;
  const declared = Object.keys(
    ((questions.schema.properties as Record<string, { properties?: Record<string, unknown> }> | undefined)?.owner?.properties) ?? {},
  );
  for (const name of declared) {
    if (shown.includes(name)) continue;
    // The address search draws the address lines and postcode it fills.
    if (shown.includes('customer_address_line_1') && ['houseNumberName', 'customer_address_line_2', 'customer_town', 'customer_county', 'customer_postcode'].includes(name)) continue;
    owner[name] = { ...((owner[name] as Record<string, unknown>) ?? {}), 'ui:field': 'nothing' };
  }
  ui.owner = owner;
  return ui;
}

/** A property's schema wherever the item schema declares it (its own properties, allOf, then/else). */
export function propertySchema(schema: unknown, name: string): Record<string, unknown> | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const s = schema as Record<string, unknown>;
  const own = (s.properties as Record<string, unknown> | undefined)?.[name];
  if (own && typeof own === 'object') return own as Record<string, unknown>;
  for (const sub of [...((s.allOf as unknown[]) ?? []), s.then, s.else]) {
    const found = propertySchema(sub, name);
    if (found) return found;
  }
  return undefined;
}

/** The item schema and item UI hints of a question set over `pets`. */
export function petQuestions(questions: QuestionsView): { item: unknown; ui: Record<string, Record<string, unknown>> } {
  const pets = (questions.schema.properties as Record<string, { items?: unknown }> | undefined)?.pets;
  const ui = ((questions.ui.pets as Record<string, unknown> | undefined)?.items ?? {}) as Record<string, Record<string, unknown>>;
  return { item: pets?.items, ui };
}

/**
 * The warnings a pet's answers carry (journey.md §4 Assumptions: warnings that do not block), as
 * copy keys: each question's `ui:options.warnings` for the answer given.
 */
export function answerWarnings(questions: QuestionsView, pet: Pet, reviewChannel?: string): string[] {
  const { ui } = petQuestions(questions);
  return Object.entries(ui)
    .map(([name, hints]) => {
      const options = hints?.['ui:options'] as Record<string, unknown> | undefined;
      const answer = String(pet[name]);
      // A warning the review hides on a channel (journey.md §5: the injury "no" information is
      // hidden on the aggregator review), named by the question set's `hideWarningOnReview`.
      const hidden = (options?.hideWarningOnReview as Record<string, string[]> | undefined)?.[answer];
      if (reviewChannel && hidden?.includes(reviewChannel)) return undefined;
      return (options?.warnings as Record<string, string> | undefined)?.[answer];
    })
    .filter((w): w is string => typeof w === 'string');
}

/** The questions of a pet whose current answer the schema refuses (journey.md §4 blocking answers). */
export function refusedAnswers(questions: QuestionsView, pet: Pet): string[] {
  const { item, ui } = petQuestions(questions);
  return Object.entries(ui)
    .filter(([, hints]) => (hints?.['ui:options'] as Record<string, unknown> | undefined)?.refusal === true)
    .filter(([name]) => {
      const schema = propertySchema(item, name);
      return schema ? refusalOf(schema, pet[name]) !== null : false;
    })
    .map(([name]) => name);
}

export function EditDialog({
  questions,
  title,
  onlyPet,
  copy,
  view,
  serverErrors,
  submissions,
  busy,
  onSave,
  onCancel,
  onRemovePet,
  onNotice,
  ui,
  focusOn,
}: {
  questions: QuestionsView;
  /** The field the modal opens at (a check-answers row's Change: `pets[0].pet_breed`); else the dialog's own start. */
  focusOn?: string;
  /** UI hints in place of the question set's own (onlyOwnerFields). */
  ui?: Record<string, unknown>;
  /** Shows a toast a widget asks for (the address search's). */
  onNotice?: (notice: { kind: 'success' | 'error' | 'info' | 'warning'; title: string; body: string }) => void;
  title: string;
  /** For a question set over pets: the one pet this modal edits. */
  onlyPet?: number;
  copy: Record<string, string>;
  view: ViewData;
  serverErrors: readonly FieldMessage[];
  submissions: number;
  busy: boolean;
  onSave: (answers: Answers) => void;
  onCancel: () => void;
  /** Offered when an answer cannot be insured and the quote has more than one pet. */
  onRemovePet?: (index: number) => void;
}) {
  const [formData, setFormData] = useState<Answers>(questions.answers);
  const [clientErrors, setClientErrors] = useState<FieldMessage[]>([]);
  const [attempts, setAttempts] = useState(0);
  const errors = clientErrors.length > 0 ? clientErrors : serverErrors;
  const errorMap = useMemo(() => toErrorMap(errors), [errors]);
  const pets = (formData.pets as Pet[] | undefined) ?? [];
  // The edit-pet modal asks the breed: the breed search and its notices need the lists, and a
  // changed answer clears what depends on it, as on the pet page (journey.md §4 Pet details).
  const asksBreed = propertySchema(petQuestions(questions).item, 'pet_breed') !== undefined;
  const lists = useBreeds(asksBreed);
  const breeds = useMemo(() => ({ lists, byId: lists ? breedIndex(lists) : new Map() }), [lists]);

  // Opened from one answer's Change: that answer takes the focus, once rjsf has drawn it.
  useEffect(() => {
    if (!focusOn) return;
    let frames = 0;
    let handle = 0;
    const tryFocus = () => {
      if (!focusField(focusOn) && frames++ < 30) handle = requestAnimationFrame(tryFocus);
    };
    handle = requestAnimationFrame(tryFocus);
    return () => cancelAnimationFrame(handle);
  }, [focusOn]);

  useEffect(() => {
    if (errors.length > 0) focusField(errors[0].field);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [attempts, submissions]);

  const refused = onlyPet !== undefined && pets[onlyPet] ? refusedAnswers(questions, pets[onlyPet]) : [];

  const formContext = useMemo(
    () => ({
      formData,
      onlyPet,
      startDate: view.start_date,
      csrf: view.csrf,
      notify: onNotice,
      /** Sets several fields of an object at once (the address search fills the owner's address). */
      setFields: (objectKey: string, fields: Record<string, unknown>) =>
        setFormData((d) => {
          const next: Answers = { ...((d[objectKey] as Answers | undefined) ?? {}) };
          for (const [k, v] of Object.entries(fields)) {
            if (v === undefined || v === '') delete next[k];
            else next[k] = v;
          }
          return { ...d, [objectKey]: next };
        }),
      /** Lets a widget set several of a pet's fields at once (the vet search). */
      setPetFields: (index: number, fields: Pet) =>
        setFormData((d) => {
          const list = [...((d.pets as Pet[] | undefined) ?? [])];
          const next: Pet = { ...list[index] };
          for (const [k, v] of Object.entries(fields)) {
            if (v === undefined) delete next[k];
            else next[k] = v;
          }
          list[index] = next;
          return { ...d, pets: list };
        }),
    }),
    [formData, onlyPet, view.start_date, view.csrf, onNotice],
  );

  function save(answers: Answers) {
    const found = validateAnswers(questions, answers, copy);
    setClientErrors(found);
    setAttempts((n) => n + 1);
    if (found.length === 0) onSave(withSetsOnPet(questions, answers, onlyPet));
  }

  return (
    <Modal titleId={`edit-${questions.id}-title`} title={title} onCancel={onCancel}>
      <CopyContext.Provider value={copy}>
        <BreedsContext.Provider value={breeds}>
          <FieldErrorsContext.Provider value={errorMap}>
            <ErrorSummary errors={errors} pets={pets} ui={questions.ui} copy={copy} />
            <Form
              schema={questions.schema as RJSFSchema}
              uiSchema={namedQuestions(ui ?? questions.ui, copy)}
              fields={fields}
              formData={formData}
              formContext={formContext}
              validator={schemaValidator}
              widgets={widgets}
              templates={templates}
              noValidate
              noHtml5Validate
              showErrorList={false}
              // A `const` is a rule, not an answer: a tick the customer must give is never pre-ticked.
              experimental_defaultFormStateBehavior={{ constAsDefaults: 'never' }}
              onChange={(e: IChangeEvent<Answers>) =>
                setFormData((before) => (asksBreed ? followAnswers(questions.ui, before, e.formData ?? {}) : (e.formData ?? {})))
              }
              onSubmit={(e: IChangeEvent<Answers>) => save(e.formData ?? {})}
            >
              <div className="dialog__actions">
                <button type="submit" className="button" disabled={busy || refused.length > 0}>
                  {busy ? text(copy, 'button.saving') : text(copy, 'button.save_close')}
                </button>
                {refused.length > 0 && onRemovePet && onlyPet !== undefined && pets.length > 1 && (
                  <button type="button" className="button button--danger" onClick={() => onRemovePet(onlyPet)}>
                    {text(copy, 'button.remove_pet')}
                  </button>
                )}
                <button type="button" className="button button--secondary" onClick={onCancel}>
                  {text(copy, 'button.cancel')}
                </button>
              </div>
            </Form>
          </FieldErrorsContext.Provider>
        </BreedsContext.Provider>
      </CopyContext.Provider>
    </Modal>
  );
}

