/**
 * The rules of the cover select page that are about display, not price (journey.md §4 Cover
 * selection): which groups and levels a pet is shown, the default level, the upsell. Prices and
 * what is offered come from the server's products; nothing here prices anything.
 */
import { text } from '@/shared/copy';
import { toPence } from '@/shared/money';
import type { Product } from '@/shared/types';

export type Group = Product['Gid'];

/** A pet's products, by group in display order and by limit within a group. */
export function productsOf(products: readonly Product[], petId: number): Product[] {
  return products
    .filter((p) => p.petid === petId)
    .sort((a, b) => a.GidOrderShow - b.GidOrderShow || a.LimitVal - b.LimitVal);
}

export function groupsOf(products: readonly Product[]): Group[] {
  return [...new Set(products.map((p) => p.Gid))];
}

export function inGroup(products: readonly Product[], group: Group | null): Product[] {
  return products.filter((p) => p.Gid === group);
}

/**
 * The level shown first in a group (journey.md §4): the pet's own product's limit if offered;
 * the only product if there is one; else the second cheapest; else the first.
 */
export function defaultProduct(products: readonly Product[], stored?: string | null): Product | undefined {
  const own = stored ? products.find((p) => p.Code === stored) : undefined;
  if (own) return own;
  if (products.length === 1) return products[0];
  const byPrice = [...products].sort((a, b) => toPence(a.RecurringMonthly) - toPence(b.RecurringMonthly));
  return byPrice[1] ?? byPrice[0];
}

/**
 * The group a pet starts with (journey.md §4): its product's group; the only group when there is
 * one (a rabbit is forced to LT); Lifetime for dogs and rabbits; none for cats, who choose.
 */
export function initialGroup(products: readonly Product[], species: string, storedCode?: string | null): Group | null {
  const groups = groupsOf(products);
  const stored = products.find((p) => p.Code === storedCode);
  if (stored) return stored.Gid;
  if (groups.length === 1) return groups[0];
  if ((species === 'dog' || species === 'rabbit') && groups.includes('LT')) return 'LT';
  return null;
}

/** Up to two higher limits in the same group (journey.md §4 Upsell). */
export function upsells(products: readonly Product[], chosen: Product | undefined): Product[] {
  if (!chosen) return [];
  return inGroup(products, chosen.Gid)
    .filter((p) => p.LimitVal > chosen.LimitVal)
    .slice(0, 2);
}

/** The excess options of a product: set excess in pounds, claim contribution as fractions. */
export function excessOptions(product: Product): { setExcess: string[]; coins: string[] } {
  const split = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
  return {
    setExcess: split(product.FlexyProductsOptions.options_set_excess),
    coins: split(product.FlexyProductsOptions.options_variable_excess),
  };
}

/** A fraction ("0.1") as a whole percentage ("10"), exactly. */
export function percentOf(fraction: string): string {
  const m = /^0?(?:\.(\d{1,2}))?$|^1$/.exec(fraction.trim());
  if (fraction.trim() === '1') return '100';
  if (!m) return fraction;
  return String(Number((m[1] ?? '0').padEnd(2, '0')));
}

/** A benefit row's value as the page shows it: its copy key's words, or the value as written. */
export function termValue(copy: Record<string, string>, t: Product['PolicyTerms'][number]): string {
  return t.val_key ? text(copy, t.val_key) : (t.val ?? '');
}
