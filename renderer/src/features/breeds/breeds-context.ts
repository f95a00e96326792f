import { createContext, useContext } from 'react';

import type { Breed, BreedLists } from './breed-store';

export interface BreedsValue {
  lists: BreedLists | null;
  byId: Map<string, Breed>;
}

export const BreedsContext = createContext<BreedsValue>({ lists: null, byId: new Map() });

export function useBreedData(): BreedsValue {
  return useContext(BreedsContext);
}

/** The pet a widget belongs to, from its rjsf id (`root_pets_0_pet_breed` → pet 0). */
export function petOf(id: string, formData: unknown): Record<string, unknown> {
  const match = /^root_pets_(\d+)_/.exec(id);
  const pets = (formData as { pets?: Array<Record<string, unknown>> } | undefined)?.pets;
  return (match && pets?.[Number(match[1])]) || {};
}

/** journey.md §4: a banned breed, or "yes" to the XL Bully question, cannot be insured. */
export function cannotInsure(pet: Record<string, unknown>, byId: Map<string, Breed>): 'excluded' | 'xl_bully' | null {
  const breed = typeof pet.pet_breed === 'string' ? byId.get(pet.pet_breed) : undefined;
  if (breed?.exclude) return 'excluded';
  if (breed?.at_risk && pet.pet_type === 'dog' && pet.xl_bully_at_risk === 'yes') return 'xl_bully';
  return null;
}
