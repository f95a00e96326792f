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
  it('groups an American Express number 4-6-5, at most 15 digits (AMEX is accepted)', () => {
    expect(groupCardNumber('3782')).toBe('3782');
    expect(groupCardNumber('37828')).toBe('3782 8');
    expect(groupCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(groupCardNumber('3411 1111 1111 11122')).toBe('3411 111111 11111');
  });
  it('puts the slash in the expiry and lets backspace take it out', () => {
    expect(formatExpiry('0', '')).toBe('0');
    expect(formatExpiry('04', '0')).toBe('04/');
    expect(formatExpiry('04/2', '04/')).toBe('04/2');
    expect(formatExpiry('0429', '')).toBe('04/29');
    expect(formatExpiry('04', '04/')).toBe('0');
  });
});
