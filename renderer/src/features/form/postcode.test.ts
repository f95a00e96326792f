import { describe, expect, it } from 'vitest';

import questions from '../../../../questions/your-details.json';
import fixture from '../../../../tests/fixtures/postcodes.json';
import { formatPostcode } from './postcode';

// The table the server's engine tests read too (one rule on both sides).
const table = fixture as unknown as { valid: Array<[string, string]>; invalid: string[] };
const pattern = new RegExp(
  (questions.schema.properties.owner.properties.customer_postcode as { pattern: string }).pattern,
);

describe('the owner postcode rule (owner-payment.md §5 Owner)', () => {
  it.each(table.valid)('formats %j as %j, which the schema accepts', (typed, formatted) => {
    expect(formatPostcode(typed)).toBe(formatted);
    expect(pattern.test(formatted)).toBe(true);
  });

  it.each(table.invalid)('refuses %j, and the schema refuses it too', (typed) => {
    expect(formatPostcode(typed)).toBeNull();
    expect(pattern.test(typed.trim().toUpperCase())).toBe(false);
  });
});
