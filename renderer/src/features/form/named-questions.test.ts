// A pet's questions use its name once it is known, with the catalogue's own wording.
import { describe, expect, it } from 'vitest';

import enGB from '../../../../questions/copy/en-GB.json';
import petDetails from '../../../../questions/pet-details.json';
import { knownName, namedQuestions } from './named-questions';

const copy = enGB.messages as Record<string, string>;
// The server sends each ui:title as text in the page's language; the named wording stays a key.
function localised(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(localised);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'ui:title' && typeof v === 'string' ? copy[v] : localised(v)]));
}
const ui = localised(petDetails.ui) as Record<string, unknown>;

type Items = (pet: unknown, index: number) => Record<string, Record<string, unknown>>;
const items = (namedQuestions(ui, copy).pets as { items: Items }).items;

describe('questions that use the pet name', () => {
  it('ask about "your pet" until the pet has a name of two characters or more', () => {
    expect(items(undefined, 0).pet_sex['ui:title']).toBe('Is your pet male or female?');
    expect(items({ pet_name: 'R' }, 0).pet_sex['ui:title']).toBe('Is your pet male or female?');
    expect(knownName({ pet_name: '  Rex ' })).toBe('Rex');
  });

  it("use each pet's own name, and leave the name question as it is", () => {
    const rex = items({ pet_name: 'Rex' }, 0);
    const tigger = items({ pet_name: 'Tigger' }, 1);
    expect(rex.pet_sex['ui:title']).toBe('Is Rex male or female?');
    expect(rex.pet_date_of_birth['ui:title']).toBe("What is Rex's date of birth?");
    expect(rex.pet_breed['ui:title']).toBe('What breed is Rex?');
    expect(rex.pet_cost['ui:title']).toBe('How much did you pay for Rex?');
    expect(tigger.pet_type['ui:title']).toBe('Is Tigger a dog, cat or rabbit?');
    expect(rex.pet_name['ui:title']).toBe("What is your pet's name?");
  });

  it('leaves a form without named questions untouched', () => {
    const plain = { owner: { customer_first_name: { 'ui:title': 'First name' } } };
    expect(namedQuestions(plain, copy)).toBe(plain);
  });
});
