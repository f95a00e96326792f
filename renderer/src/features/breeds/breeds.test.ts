import { describe, expect, it, vi } from 'vitest';

import petDetails from '../../../../questions/pet-details.json';
import dogs from '../../../../questions/breeds/dog.json';
import cats from '../../../../questions/breeds/cat.json';
import rabbits from '../../../../questions/breeds/rabbit.json';
import { type BreedLists, breedName, loadBreeds, matchBreeds, searchableBreeds } from './breed-store';
import { cannotInsure } from './breeds-context';
import { followAnswers } from './dependent-answers';

const lists = {
  dog_breed_data: { breedData: dogs.breedData, crossbreedData: dogs.crossbreedData, mongrelData: dogs.mongrelData },
  cat_breed_data: cats.breeds,
  rabbit_breed_data: rabbits.breeds,
} as unknown as BreedLists;
const byId = new Map([...lists.dog_breed_data.breedData, ...lists.dog_breed_data.crossbreedData, ...lists.cat_breed_data].map((b) => [b.id, b]));
const ui = petDetails.ui as Record<string, unknown>;

describe('journey.md §4 Pet details: answers that follow other answers', () => {
  it('changing the species clears the types and the breed', () => {
    const before = { pets: [{ pet_type: 'dog', dog_breed_type: 'breed', pet_breed: 'D173', pet_name: 'Rex' }] };
    const after = { pets: [{ ...before.pets[0], pet_type: 'cat' }] };
    expect(followAnswers(ui, before, after)).toEqual({ pets: [{ pet_type: 'cat', pet_name: 'Rex' }] });
  });
  it('a cat type other than pedigree sets the breed; pedigree clears it for the search', () => {
    const before = { pets: [{ pet_type: 'cat' }] };
    const moggie = followAnswers(ui, before, { pets: [{ pet_type: 'cat', cat_breed_type: 'C286' }] });
    expect(moggie).toEqual({ pets: [{ pet_type: 'cat', cat_breed_type: 'C286', pet_breed: 'C286' }] });
    const pedigree = followAnswers(ui, moggie, { pets: [{ pet_type: 'cat', cat_breed_type: 'pedigree', pet_breed: 'C286' }] });
    expect(pedigree).toEqual({ pets: [{ pet_type: 'cat', cat_breed_type: 'pedigree' }] });
  });
  it('the same holds for rabbit "other"', () => {
    const lionhead = followAnswers(ui, { pets: [{ pet_type: 'rabbit' }] }, { pets: [{ pet_type: 'rabbit', rabbit_breed_type: 'R338' }] });
    expect(lionhead.pets).toEqual([{ pet_type: 'rabbit', rabbit_breed_type: 'R338', pet_breed: 'R338' }]);
  });
  it('a mongrel size sets the breed', () => {
    const before = { pets: [{ pet_type: 'dog', dog_breed_type: 'mongrel' }] };
    const after = followAnswers(ui, before, { pets: [{ pet_type: 'dog', dog_breed_type: 'mongrel', mongrel_size: 'D608' }] });
    expect(after.pets).toEqual([{ pet_type: 'dog', dog_breed_type: 'mongrel', mongrel_size: 'D608', pet_breed: 'D608' }]);
  });
  it('changing the dog type clears the breed and the size', () => {
    const before = { pets: [{ pet_type: 'dog', dog_breed_type: 'mongrel', mongrel_size: 'D608', pet_breed: 'D608' }] };
    const after = followAnswers(ui, before, { pets: [{ ...before.pets[0], dog_breed_type: 'crossbreed' }] });
    expect(after.pets).toEqual([{ pet_type: 'dog', dog_breed_type: 'crossbreed' }]);
  });
});

describe('the breed search', () => {
  it('offers the list of the species and type', () => {
    expect(searchableBreeds(lists, { pet_type: 'dog', dog_breed_type: 'breed' }).some((b) => b.id === 'D173')).toBe(true);
    expect(searchableBreeds(lists, { pet_type: 'dog', dog_breed_type: 'crossbreed' }).some((b) => b.desc === 'Cockapoo')).toBe(true);
    expect(searchableBreeds(lists, { pet_type: 'dog', dog_breed_type: 'mongrel' })).toEqual([]);
    expect(searchableBreeds(lists, { pet_type: 'cat', cat_breed_type: 'pedigree' }).every((b) => b.breed_type === 'pedigree')).toBe(true);
    expect(searchableBreeds(lists, { pet_type: 'rabbit', rabbit_breed_type: 'other' }).some((b) => b.desc === 'Rex')).toBe(true);
  });
  it('matches anywhere, ignoring case and accents, names that start with the text first', () => {
    const dogsList = searchableBreeds(lists, { pet_type: 'dog', dog_breed_type: 'breed' });
    const found = matchBreeds(dogsList, 'lab').map((b) => b.desc);
    expect(found).toContain('Retriever (Labrador)');
    expect(matchBreeds(dogsList, 'braque d’auv').map((b) => b.desc)).toEqual(['Braque D’Auvergne (Imp)']);
    expect(matchBreeds(dogsList, 'bea')[0].desc).toBe('Beagle');
  });
  it('shows breeds as owners say them, and still finds the Kennel Club name', () => {
    const dogsList = searchableBreeds(lists, { pet_type: 'dog', dog_breed_type: 'breed' });
    expect(matchBreeds(dogsList, 'cocker').map(breedName)).toEqual(['Cocker Spaniel', 'American Cocker Spaniel']);
    expect(matchBreeds(dogsList, 'spaniel (cocker)').map(breedName)).toEqual(['Cocker Spaniel']);
    expect(matchBreeds(dogsList, 'golden').map(breedName)).toEqual(['Golden Retriever']);
    expect(matchBreeds(dogsList, 'beagle').map(breedName)).toEqual(['Beagle']);
    // Every breed the search offers reads without the register's brackets.
    const offered = [...dogsList, ...searchableBreeds(lists, { pet_type: 'dog', dog_breed_type: 'crossbreed' })];
    expect(offered.filter((b) => breedName(b).includes('('))).toEqual([]);
  });
  it('keeps the lists in session storage after the first load', async () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v), removeItem: (k: string) => void store.delete(k) } as unknown as Storage;
    const fetcher = vi.fn(async () => new Response(JSON.stringify({ data: lists }), { status: 200 }));
    await loadBreeds(fetcher as unknown as typeof fetch, storage);
    await loadBreeds(fetcher as unknown as typeof fetch, storage);
    expect(fetcher).toHaveBeenCalledTimes(1);
  });
});

describe('journey.md §4: pets that cannot be insured', () => {
  it('a banned breed, or yes to the XL Bully question', () => {
    expect(cannotInsure({ pet_type: 'dog', pet_breed: 'D228' }, byId)).toBe('excluded');
    expect(cannotInsure({ pet_type: 'dog', pet_breed: 'D205', xl_bully_at_risk: 'yes' }, byId)).toBe('xl_bully');
    expect(cannotInsure({ pet_type: 'dog', pet_breed: 'D205', xl_bully_at_risk: 'no' }, byId)).toBeNull();
    expect(cannotInsure({ pet_type: 'dog', pet_breed: 'D173' }, byId)).toBeNull();
  });
});
