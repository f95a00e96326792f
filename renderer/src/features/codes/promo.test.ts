import { describe, expect, it } from 'vitest';

import { text } from '@/shared/copy';
import en from '../../../../questions/copy/en-GB.json';
import { promoFailure } from './CodesPanel';

// owner-payment.md §8 Promo and Nectar, word for word.
describe('the promo check toasts', () => {
  const copy = (en as { messages: Record<string, string> }).messages;
  const toast = (prefix: string | null) => (prefix ? `${text(copy, `${prefix}.title`)}: ${text(copy, `${prefix}.body`)}` : null);
  it('an empty answer is the promo API failure toast', () => {
    expect(toast(promoFailure(200, undefined))).toBe('Error: Promo code error, please try again.');
  });
  it('a failed call is the something-went-wrong toast', () => {
    expect(toast(promoFailure(500, undefined))).toBe('Something went wrong: We encountered an error, please try again.');
  });
  it('an offer is no failure', () => {
    expect(promoFailure(200, { valid: true })).toBeNull();
  });
});
