import { describe, expect, it } from 'vitest';

import cases from '../../../engine/tests/fixtures/money.json';
import amounts from '../../../tests/fixtures/amounts.json';
import { fromPence, moneyFormat, plainAmount, sterling, toPence, type Currency } from './money';

describe('money (journey.md §9, owner-payment.md §9 Currency)', () => {
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
    expect(sterling.price('28.48')).toBe('£28.48');
    expect(sterling.price('341.76')).toBe('£341.76');
    expect(sterling.price('12')).toBe('£12.00');
    expect(sterling.price('2000000')).toBe('£2,000,000.00');
    expect(sterling.amount('99')).toBe('£99');
    expect(sterling.amount('189.10')).toBe('£189.10');
  });

  it('writes every shared case as the engine does (engine/tests/fixtures/money.json)', () => {
    expect(cases.cases.length).toBeGreaterThanOrEqual(10);
    for (const c of cases.cases) {
      const money = moneyFormat(c.currency as Currency, c.language);
      expect(money.price(c.value), `price of ${c.value} in ${c.currency} ${c.language}`).toBe(c.price);
      expect(money.amount(c.value), `amount of ${c.value} in ${c.currency} ${c.language}`).toBe(c.amount);
    }
  });

  it('writes French euros as the browser does (Intl.NumberFormat)', () => {
    const euros = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
    expect(moneyFormat('EUR', 'fr-FR').price('1234.5')).toBe(euros.format(1234.5));
    expect(moneyFormat('EUR', 'fr-FR').price('28.48')).toBe(euros.format(28.48));
  });
});

// The table the server's engine tests read too (one rule on both sides): journey.md §5 pet_cost
// and thousands separators as people write them.
describe('amounts as people type them', () => {
  const table = amounts as unknown as { valid: Array<[string, Currency, string]>; unchanged: Array<[string, Currency]> };
  it.each(table.valid)('reads %j in %s as %j', (typed, currency, plain) => {
    expect(plainAmount(typed, currency)).toBe(plain);
  });
  it.each(table.unchanged)('leaves %j in %s as typed', (typed, currency) => {
    expect(plainAmount(typed, currency)).toBe(typed);
  });
});
