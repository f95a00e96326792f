import { describe, expect, it } from 'vitest';

import fixture from '../../../../tests/fixtures/phones.json';
import { phoneDigits } from './phone';

// The table the server's engine tests read too (one rule on both sides).
const table = fixture as unknown as { valid: Array<[string, string]>; invalid: string[] };

describe('phone numbers as people type them (owner-payment.md §5 Owner)', () => {
  it.each(table.valid)('reads %j as %j', (typed, digits) => {
    expect(phoneDigits(typed)).toBe(digits);
  });

  it.each(table.invalid)('leaves %j for the schema to refuse', (typed) => {
    expect(phoneDigits(typed)).toBeNull();
  });
});
