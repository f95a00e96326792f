/**
 * Answers to check, each with its own Change (the GOV.UK "check answers" pattern): a
 * pet's answers as its question set lists them, and the owner's. Which of a pet's answers are
 * listed, and under what short label, is the question set's (`ui:options.summaryLabel`, a copy
 * key; answers sharing a label make one row), so a question a product team adds with a label is
 * listed without a change here.
 */
import { useMemo } from 'react';

import { type Breed, breedIndex, breedName, useBreeds } from '@/features/breeds/breed-store';
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import { text } from '@/shared/copy';
import { useMoney } from '@/shared/money';
import type { QuestionsView } from '@/shared/types';

export interface AnswerRow {
  /** The answer's field (a pet's field name, or the owner's). */
  key: string;
  label: string;
  value: string;
  /** What Change opens; absent: the row cannot be changed here. */
  onChange?: () => void;
  /** Read after "Change" by a screen reader ("date of birth for Rex"). */
  changeName?: string;
}

type Node = Record<string, unknown>;

/** The pet item's schema and UI hints of a pets question set. */
function petItem(questions: QuestionsView): { item: Node; ui: Record<string, Node>; order: string[] } {
  const item = (((questions.schema.properties as Node | undefined)?.pets as Node | undefined)?.items ?? {}) as Node;
  const ui = ((questions.ui.pets as Node | undefined)?.items ?? {}) as Record<string, Node>;
  const listed = Array.isArray(ui['ui:order']) ? (ui['ui:order'] as string[]) : [];
  // rjsf's order: the named fields, the rest (here, those with hints) where "*" stands.
  const rest = Object.keys(ui).filter((k) => !k.startsWith('ui:') && !listed.includes(k));
  const order = listed.length > 0 ? listed.flatMap((k) => (k === '*' ? rest : [k])) : rest;
  return { item, ui, order };
}

/** A field's schema wherever the item declares it: its properties, or a condition's (if/then, allOf, …). */
function fieldSchema(node: unknown, key: string, depth = 0): Node | undefined {
  if (depth > 8 || node === null || typeof node !== 'object') return undefined;
  const n = node as Node;
  const own = (n.properties as Record<string, Node> | undefined)?.[key];
  if (own && (Array.isArray(own.enum) || own.type)) return own;
  for (const part of ['then', 'else', 'allOf', 'anyOf', 'oneOf', 'dependencies']) {
    const child = n[part];
    const children = Array.isArray(child) ? child : child && typeof child === 'object' ? (part === 'dependencies' ? Object.values(child) : [child]) : [];
    for (const c of children) {
      const found = fieldSchema(c, key, depth + 1);
      if (found) return found;
    }
  }
  return own;
}

/** A pet's answers with a summary label, in the question set's order, as the customer would say them. */
export function usePetAnswers(questions: QuestionsView | undefined, pet: Record<string, unknown>, copy: Record<string, string>): Array<Omit<AnswerRow, 'onChange' | 'changeName'>> {
  const lists = useBreeds(Boolean(questions));
  const byId = useMemo(() => (lists ? breedIndex(lists) : new Map<string, Breed>()), [lists]);
  const { amount } = useMoney();
  if (!questions) return [];
  const { item, ui, order } = petItem(questions);
  const rows: Array<Omit<AnswerRow, 'onChange' | 'changeName'>> = [];
  const labels: string[] = [];
  for (const key of order) {
    const hints = ui[key] ?? {};
    const label = (hints['ui:options'] as Node | undefined)?.summaryLabel;
    const answer = pet[key];
    if (typeof label !== 'string' || answer === undefined || answer === null || answer === '') continue;
    const value = answerText(answer, fieldSchema(item, key) ?? {}, hints, copy, amount, byId, pet);
    if (value === '') continue;
    // Answers that share a label are one row ("Dog, Pedigree, Beagle"), whose Change opens at the
    // first; a breed its type already names (a moggie) is said once.
    const at = labels.indexOf(label);
    if (at >= 0) {
      const parts = rows[at].value.split(', ');
      if (!parts.includes(value)) rows[at] = { ...rows[at], value: `${rows[at].value}, ${value}` };
      continue;
    }
    labels.push(label);
    rows.push({ key, label: text(copy, label), value });
  }
  return rows;
}

function answerText(
  answer: unknown,
  schema: Node,
  hints: Node,
  copy: Record<string, string>,
  amount: (v: string) => string,
  byId: Map<string, Breed>,
  pet: Record<string, unknown>,
): string {
  const widget = hints['ui:widget'];
  const names = hints['ui:enumNames'];
  if (Array.isArray(schema.enum) && Array.isArray(names)) {
    const i = (schema.enum as unknown[]).indexOf(answer);
    if (i >= 0 && typeof names[i] === 'string') return text(copy, names[i] as string);
  }
  if (widget === 'breedSearch' && typeof answer === 'string') {
    const breed = byId.get(answer);
    return breed ? breedName(breed) : typeof pet.petBreedName === 'string' ? pet.petBreedName : '';
  }
  if (widget === 'dateParts' && typeof answer === 'string') return ukDate(answer);
  if (widget === 'currency' && (typeof answer === 'string' || typeof answer === 'number')) {
    const plain = String(answer).replace(/^[^\d]+/, '');
    return Number(plain) === 0 && typeof (hints['ui:options'] as Node | undefined)?.nothingLabel === 'string'
      ? text(copy, (hints['ui:options'] as Node).nothingLabel as string)
      : amount(plain);
  }
  if (typeof answer === 'boolean') return text(copy, answer ? 'common.yes' : 'common.no');
  if (typeof answer === 'string' || typeof answer === 'number') return String(answer);
  return '';
}

/** The rows as a summary list, each with its Change. */
export function CheckAnswers({ rows, copy }: { rows: AnswerRow[]; copy: Record<string, string> }) {
  return (
    <dl className="check-answers">
      {rows.map((row) => (
        <div className="check-answers__row" key={row.key}>
          <dt className="check-answers__key">{row.label}</dt>
          <dd className="check-answers__value">{row.value}</dd>
          <dd className="check-answers__action">
            {row.onChange && (
              <button type="button" className="link-button" onClick={row.onChange}>
                {text(copy, 'review.answer.change')}
                <span className="visually-hidden"> {row.changeName ?? row.label}</span>
              </button>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
