import { describe, expect, it } from 'vitest';

import { linkRefused, referenceFromLink } from './RetrieveQuoteStep';

// A quote email's link fills in the reference; the email address is still asked.
describe('the retrieve link', () => {
  it('starts the form with the reference it carries', () => {
    expect(referenceFromLink('?brand=pos&reference=ABCD-EFGH-JKMN')).toBe('ABCD-EFGH-JKMN');
    expect(referenceFromLink('?reference=abcd-efgh-jkmn')).toBe('ABCD-EFGH-JKMN');
  });
  it('ignores anything that is not a reference', () => {
    expect(referenceFromLink('')).toBe('');
    expect(referenceFromLink('?reference=<script>')).toBe('');
    expect(referenceFromLink(`?reference=${'A'.repeat(30)}`)).toBe('');
  });
});

describe('a one-time link that has expired or been used', () => {
  it('is said on the retrieve page', () => {
    expect(linkRefused('?brand=pos&link=invalid')).toBe(true);
    expect(linkRefused('?brand=pos')).toBe(false);
    expect(linkRefused('?link=other')).toBe(false);
  });
});
