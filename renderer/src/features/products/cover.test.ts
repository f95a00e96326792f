import { describe, expect, it } from 'vitest';

import type { Product } from '@/shared/types';
import { defaultProduct, initialGroup, percentOf, productsOf, upsells } from './cover';

function product(code: string, monthly: string, petid = 1): Product {
  const gid = code.slice(0, 2) as Product['Gid'];
  return {
    Code: code,
    Gid: gid,
    GidOrderShow: { LT: 1, MB: 2, TL: 3 }[gid],
    LimitVal: Number(code.slice(2)),
    RecurringMonthly: monthly,
    petid,
  } as unknown as Product;
}

const dog = [
  product('TL01000', '9.00'),
  product('LT02000', '22.00'),
  product('LT01000', '20.00'),
  product('LT04000', '25.00'),
  product('LT06000', '27.00'),
  product('MB04000', '18.00'),
  product('LT04000', '12.00', 2),
];

describe('cover select display rules (journey.md §4 Cover selection)', () => {
  it('orders a pet’s products by group then limit, and only that pet’s', () => {
    expect(productsOf(dog, 1).map((p) => p.Code)).toEqual(['LT01000', 'LT02000', 'LT04000', 'LT06000', 'MB04000', 'TL01000']);
  });

  it('shows first the pet’s own level, else the only one, else the second cheapest', () => {
    const lt = productsOf(dog, 1).filter((p) => p.Gid === 'LT');
    expect(defaultProduct(lt, 'LT06000')?.Code).toBe('LT06000');
    expect(defaultProduct(lt, 'XX')?.Code).toBe('LT02000');
    expect(defaultProduct([lt[0]])?.Code).toBe('LT01000');
  });

  it('starts dogs and rabbits on Lifetime, cats with no group, a single group chosen', () => {
    const mine = productsOf(dog, 1);
    expect(initialGroup(mine, 'dog')).toBe('LT');
    expect(initialGroup(mine, 'cat')).toBeNull();
    expect(initialGroup(mine, 'cat', 'MB04000')).toBe('MB');
    expect(initialGroup(productsOf(dog, 2), 'rabbit')).toBe('LT');
  });

  it('offers up to two higher limits in the same group', () => {
    const mine = productsOf(dog, 1);
    expect(upsells(mine, mine[0]).map((p) => p.Code)).toEqual(['LT02000', 'LT04000']);
    expect(upsells(mine, mine[3]).map((p) => p.Code)).toEqual([]);
  });

  it('reads fractions as percentages', () => {
    expect(percentOf('0.1')).toBe('10');
    expect(percentOf('0.2')).toBe('20');
    expect(percentOf('0')).toBe('0');
    expect(percentOf('0.05')).toBe('5');
  });
});
