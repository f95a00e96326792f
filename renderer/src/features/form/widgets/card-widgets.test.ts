import { describe, expect, it } from 'vitest';

import { formatExpiry, groupCardNumber } from './CardWidgets';

// owner-payment.md §5 Payment: "Card number 16 digits in groups of four"; "expiry MM/YY".
describe('card boxes', () => {
  it('groups the number in fours as it is typed, at most 16 digits', () => {
    expect(groupCardNumber('4111')).toBe('4111');
    expect(groupCardNumber('41111')).toBe('4111 1');
    expect(groupCardNumber('4111111111111111')).toBe('4111 1111 1111 1111');
    expect(groupCardNumber('4111-1111 1111x11112222')).toBe('4111 1111 1111 1111');
  });
  it('puts the slash in the expiry and lets backspace take it out', () => {
    expect(formatExpiry('0', '')).toBe('0');
    expect(formatExpiry('04', '0')).toBe('04/');
    expect(formatExpiry('04/2', '04/')).toBe('04/2');
    expect(formatExpiry('0429', '')).toBe('04/29');
    expect(formatExpiry('04', '04/')).toBe('0');
  });
});
