import { describe, expect, it } from 'vitest';

import { amount, fromPence, price, toPence } from './money';

describe('money (journey.md §9: pounds, prices to 2 decimals, whole numbers may show without)', () => {
  it('reads and writes pence exactly', () => {
    expect(toPence('28.48')).toBe(2848);
    expect(toPence('12')).toBe(1200);
    expect(toPence('0.5')).toBe(50);
    expect(toPence('-1.05')).toBe(-105);
    expect(toPence('abc')).toBeNaN();
    expect(fromPence(2848)).toBe('28.48');
    expect(fromPence(5)).toBe('0.05');
    // 0.1 + 0.2 in pence is exact.
    expect(fromPence(toPence('0.10') + toPence('0.20'))).toBe('0.30');
  });

  it('shows prices with the pound sign and separators', () => {
    expect(price('28.48')).toBe('£28.48');
    expect(price('341.76')).toBe('£341.76');
    expect(price('12')).toBe('£12.00');
    expect(price('2000000')).toBe('£2,000,000.00');
    expect(amount('99')).toBe('£99');
    expect(amount('189.10')).toBe('£189.10');
  });
});
