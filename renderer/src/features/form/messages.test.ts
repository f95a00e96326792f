// The browser's side of journey.md §5 Pet form: the same question file and copy the server uses,
// validated by the interpreting validator (json-schema.ts), give the same message per field as the server's tests
// (server/tests/api/pet_details_api.rs).
import { describe, expect, it } from 'vitest';

import petDetails from '../../../../questions/pet-details.json';
import enGB from '../../../../questions/copy/en-GB.json';
import type { QuestionsView } from '@/shared/types';
import { validateAnswers } from './FormStep';

import { fieldName, schemaOrder } from './messages';

const questions = { id: 'pet_details', schema: petDetails.schema, ui: petDetails.ui, answers: {}, submit: null } as unknown as QuestionsView;
const copy = enGB.messages as Record<string, string>;

const valid = {
  pet_name: 'Biscuit',
  pet_type: 'dog',
  dog_breed_type: 'breed',
  pet_breed: 'D173',
  pet_date_of_birth: '2023-04-01',
  pet_sex: 'f',
  pet_neutered: 'yes',
  pet_any_injury_illness: 'no',
  pet_cost: '450.00',
};

function check(pet: Record<string, unknown>) {
  return validateAnswers(questions, { pets: [pet] }, copy);
}

function without(field: string) {
  const pet: Record<string, unknown> = { ...valid };
  delete pet[field];
  return pet;
}

describe('pet form rules in the browser', () => {
  it('accepts a valid pet', () => {
    expect(check(valid)).toEqual([]);
  });

  it.each([
    ['§5 pet_name required', without('pet_name'), 'pets[0].pet_name', 'This field is required'],
    ['§5 pet_name special characters', { ...valid, pet_name: 'Rex!' }, 'pets[0].pet_name', "Your pet's name cannot contain special characters"],
    ['§5 pet_name too short', { ...valid, pet_name: 'R' }, 'pets[0].pet_name', "Your pet's name cannot be less than two characters or more than 40"],
    ['§5 pet_name too long', { ...valid, pet_name: 'R'.repeat(41) }, 'pets[0].pet_name', "Your pet's name cannot be less than two characters or more than 40"],
    ['§5 pet_type required', without('pet_type'), 'pets[0].pet_type', 'This field is required'],
    ['§5 dog_breed_type required for dogs', without('dog_breed_type'), 'pets[0].dog_breed_type', 'This field is required'],
    ['§5 pet_breed required', without('pet_breed'), 'pets[0].pet_breed', 'This field is required'],
    ['§5 cat_breed_type required for cats', { ...valid, pet_type: 'cat', dog_breed_type: undefined }, 'pets[0].cat_breed_type', 'This field is required'],
    ['§5 mongrel_size required for mongrels', { ...valid, dog_breed_type: 'mongrel' }, 'pets[0].mongrel_size', 'This field is required'],
    ['§5 pet_date_of_birth format', { ...valid, pet_date_of_birth: '2023-4-1' }, 'pets[0].pet_date_of_birth', 'Please check your date is in the following format (DD/MM/YYYY)'],
    ['§5 pet_date_of_birth strict valid date', { ...valid, pet_date_of_birth: '2023-02-29' }, 'pets[0].pet_date_of_birth', 'Please enter a valid date'],
    ['§5 pet_cost required', without('pet_cost'), 'pets[0].pet_cost', 'This field is required'],
    ['§5 pet_cost not a number', { ...valid, pet_cost: 'lots' }, 'pets[0].pet_cost', 'Please enter a valid number'],
    ['§5 pet_cost non-negative', { ...valid, pet_cost: '-5' }, 'pets[0].pet_cost', 'This field can only accept positive numbers'],
    ['§5 pet_cost two decimals', { ...valid, pet_cost: '12.345' }, 'pets[0].pet_cost', 'Please enter a valid number'],
    ['§5 pet_cost at most 10000', { ...valid, pet_cost: '10000.01' }, 'pets[0].pet_cost', 'Please enter a number less than or equal to 10000'],
  ])('%s', (_rule, pet, field, message) => {
    expect(check(pet)).toEqual([{ field, message }]);
  });

  it('gives one message per field, the first in schema order', () => {
    // "R!" breaks both the character rule and the length rule; the character rule comes first.
    expect(check({ ...valid, pet_name: 'R!' })).toEqual([{ field: 'pets[0].pet_name', message: "Your pet's name cannot contain special characters" }]);
  });
});

describe('helpers shared with the server', () => {
  it('names fields as the API does', () => {
    expect(fieldName('/pets/0/pet_name')).toBe('pets[0].pet_name');
    expect(fieldName('/owner/customer_postcode')).toBe('owner.customer_postcode');
  });
  it('orders keywords as written', () => {
    const schema = { a: { x: 1, y: { z: [0, { q: 1 }] } } };
    expect(schemaOrder(schema, '/a/y/z/1/q')).toEqual([0, 1, 0, 1, 0]);
  });
});
