/**
 * The breed lists (journey.md §7 breed list call), fetched once and kept in session storage for
 * the rest of the visit, as the spec says. The same files give the server its breed rules.
 */
import { useEffect, useState } from 'react';

export interface Breed {
  id: string;
  /** The Kennel Club's name, as recorded ("Spaniel (Cocker)"). */
  desc: string;
  /** The breed as owners say it, where that differs ("Cocker Spaniel"). */
  spoken?: string;
  active: boolean;
  species: 'dog' | 'cat' | 'rabbit';
  category: string;
  exclude: boolean;
  exclude_tpl: boolean;
  at_risk: boolean;
  high_risk: boolean;
  breed_type: string;
  select: boolean;
  min_age_wks: number;
  max_age_mths: number;
}

export interface BreedLists {
  dog_breed_data: { breedData: Breed[]; crossbreedData: Breed[]; mongrelData: Breed[] };
  cat_breed_data: Breed[];
  rabbit_breed_data: Breed[];
}

/** Kept under the lists' address, which names the definitions version: new lists, new key. */
const STORAGE_PREFIX = 'pawpath.breeds:';
let pending: Promise<BreedLists> | null = null;

/**
 * Where the lists are: the breed list call until the page's boot names their address, which
 * carries the definitions version and is cached by the browser for a year.
 */
let address = '/api/getbreedlist';

export function seedBreedsUrl(url: string | undefined): void {
  if (url) address = url;
}

export function loadBreeds(fetcher: typeof fetch = fetch, storage: Storage | undefined = globalThis.sessionStorage): Promise<BreedLists> {
  const key = STORAGE_PREFIX + address;
  const kept = storage?.getItem(key);
  if (kept) {
    try {
      return Promise.resolve(JSON.parse(kept) as BreedLists);
    } catch {
      storage?.removeItem(key);
    }
  }
  // As the HTML's <link rel="preload" as="fetch" crossorigin> asks (no headers of its own), so the
  // preloaded answer is the one used; both addresses answer JSON.
  pending ??= fetcher(address, { credentials: 'same-origin' })
    .then(async (r) => {
      if (!r.ok) throw new Error(`breed list: HTTP ${r.status}`);
      const lists = ((await r.json()) as { data: BreedLists }).data;
      storage?.setItem(key, JSON.stringify(lists));
      return lists;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

/**
 * The breed lists, once loaded (null until then, or if they could not be loaded; never loaded
 * when not `wanted`, as for a modal that asks no breed).
 */
export function useBreeds(wanted = true): BreedLists | null {
  const [lists, setLists] = useState<BreedLists | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    loadBreeds()
      .then((l) => live && setLists(l))
      .catch(() => live && setLists(null));
    return () => {
      live = false;
    };
  }, [wanted]);
  return lists;
}

/** Every breed of every list, by id. */
export function breedIndex(lists: BreedLists): Map<string, Breed> {
  const all = [
    ...lists.dog_breed_data.breedData,
    ...lists.dog_breed_data.crossbreedData,
    ...lists.dog_breed_data.mongrelData,
    ...lists.cat_breed_data,
    ...lists.rabbit_breed_data,
  ];
  return new Map(all.map((b) => [b.id, b]));
}

/** The breeds a customer searches for a pet of this species and type (journey.md §3, §4). */
export function searchableBreeds(lists: BreedLists, pet: Record<string, unknown>): Breed[] {
  const pick = (list: Breed[], breedType?: string) => list.filter((b) => b.active && b.select && (!breedType || b.breed_type === breedType));
  switch (pet.pet_type) {
    case 'dog':
      if (pet.dog_breed_type === 'breed') return pick(lists.dog_breed_data.breedData);
      if (pet.dog_breed_type === 'crossbreed') return pick(lists.dog_breed_data.crossbreedData);
      return [];
    case 'cat':
      return pet.cat_breed_type === 'pedigree' ? pick(lists.cat_breed_data, 'pedigree') : [];
    case 'rabbit':
      return pet.rabbit_breed_type === 'other' ? pick(lists.rabbit_breed_data, 'other') : [];
    default:
      return [];
  }
}

/** The breed's name as the page shows it: as owners say it ("Cocker Spaniel"), else the Kennel Club's. */
export function breedName(breed: Breed): string {
  return breed.spoken ?? breed.desc;
}

/**
 * Case- and accent-insensitive match anywhere in the name owners use or the Kennel Club's
 * ("cocker" and "spaniel (c" both find Cocker Spaniel); names starting with the text first.
 */
export function matchBreeds(breeds: Breed[], text: string, limit = 50): Breed[] {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const q = fold(text.trim());
  if (!q) return breeds.slice(0, limit);
  const starts: Breed[] = [];
  const contains: Breed[] = [];
  for (const b of breeds) {
    const names = b.spoken ? [fold(b.spoken), fold(b.desc)] : [fold(b.desc)];
    if (names.some((n) => n.startsWith(q))) starts.push(b);
    else if (names.some((n) => n.includes(q))) contains.push(b);
  }
  const byName = (a: Breed, b: Breed) => breedName(a).localeCompare(breedName(b), 'en-GB');
  return [...starts.sort(byName), ...contains.sort(byName)].slice(0, limit);
}
