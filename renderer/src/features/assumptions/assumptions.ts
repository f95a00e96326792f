/**
 * What the assumptions page asks of each pet (journey.md §4 Assumptions and health questions):
 * the questions asked of it in their order, what we assume where nothing is stored, and an
 * answer as its words.
 */
import type { RJSFSchema } from '@rjsf/utils';
import { retrieveSchema } from '@rjsf/utils';

import { petQuestions, propertySchema } from '@/features/form/EditDialog';
import { schemaValidator } from '@/features/form/schema-validator';
import type { QuestionsView } from '@/shared/types';

export type Pet = Record<string, unknown>;
export type Answers = Record<string, unknown>;

export type Modal = { kind: 'assumptions' | 'pre_existing'; pet: number } | { kind: 'start_date' } | null;

/**
 * The answers the page holds: the stored ones, with what we assume (each question's `default`)
 * where nothing is stored yet, for the questions this pet is asked.
 */
export function withDefaults(questions: QuestionsView): Answers {
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
export function askedOf(questions: QuestionsView, pet: Pet, includeHidden = false): string[] {
  const { item, ui } = petQuestions(questions);
  const resolved = retrieveSchema(schemaValidator, item as RJSFSchema, questions.schema as RJSFSchema, pet);
  const declared = Object.keys(resolved.properties ?? {});
  const order = (ui['ui:order'] as unknown as string[] | undefined) ?? declared;
  const shown = (name: string) => includeHidden || (ui[name]?.['ui:widget'] !== 'hidden' && ui[name]?.['ui:widget'] !== 'confirmTick');
  const ordered = order.includes('*') ? [...order.filter((n) => n !== '*'), ...declared.filter((n) => !order.includes(n))] : order;
  return ordered.filter((name) => declared.includes(name) && shown(name));
}

export function answerText(ui: Record<string, unknown> | undefined, schema: Record<string, unknown> | undefined, value: unknown): string {
  const names = ui?.['ui:enumNames'] as string[] | undefined;
  const values = (schema?.enum as unknown[] | undefined) ?? ['yes', 'no'];
  const i = values.indexOf(value);
  return names && i >= 0 ? names[i] : String(value ?? '');
}

