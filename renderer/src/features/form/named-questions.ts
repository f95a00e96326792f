/**
 * Questions that use the pet's name once it is known: "Is Rex male or female?" rather than "Is
 * your pet male or female?". A field names its second wording in `ui:options.namedLabel` (a copy
 * key with a {name} parameter); the pets' item hints become a function of each pet's answers,
 * which rjsf calls per item, so each pet's questions carry its own name.
 */
import type { UiSchema } from '@rjsf/utils';

import { text } from '@/shared/copy';

type Node = Record<string, unknown>;

/** The name a pet's questions use: the same rule as its heading (two characters or more). */
export function knownName(pet: Node | undefined): string | null {
  const name = typeof pet?.pet_name === 'string' ? pet.pet_name.trim() : '';
  return name.length >= 2 ? name : null;
}

/** One pet's item hints with each named question's title in its named wording. */
export function nameItems(items: Node, name: string | null, copy: Record<string, string>): Node {
  if (name === null) return items;
  const out: Node = { ...items };
  for (const [field, hints] of Object.entries(items)) {
    if (hints === null || typeof hints !== 'object' || Array.isArray(hints)) continue;
    const key = ((hints as Node)['ui:options'] as Node | undefined)?.namedLabel;
    if (typeof key === 'string' && key in copy) out[field] = { ...(hints as Node), 'ui:title': text(copy, key, { name }) };
  }
  return out;
}

/** The form's hints with `pets.items` turned into a function of each pet, when any question is named. */
export function namedQuestions(ui: Node, copy: Record<string, string>): UiSchema {
  const pets = ui.pets as Node | undefined;
  const items = pets?.items as Node | undefined;
  if (!pets || !items || typeof items !== 'object') return ui as UiSchema;
  const named = Object.values(items).some((h) => h !== null && typeof h === 'object' && typeof ((h as Node)['ui:options'] as Node | undefined)?.namedLabel === 'string');
  if (!named) return ui as UiSchema;
  return { ...ui, pets: { ...pets, items: (pet: Node | undefined) => nameItems(items, knownName(pet), copy) } } as UiSchema;
}
