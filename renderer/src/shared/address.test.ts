import { describe, expect, it } from 'vitest';

import { addressMoved, repricedByAddress } from './address';

// owner-payment.md §8 Address and policy: the info toast "Your address has been changed…" when
// the address changes once a price was shown (on your details too, not only review).
describe('the address-changed toast', () => {
  const owner = { customer_postcode: 'BS1 4DJ', customer_address_line_1: '1 Quay St', houseNumberName: '1' };
  it('notices a new postcode, first line or house', () => {
    expect(addressMoved(owner, { ...owner })).toBe(false);
    expect(addressMoved(owner, { ...owner, customer_postcode: 'LE1 5WS' })).toBe(true);
    expect(addressMoved(owner, { ...owner, customer_address_line_1: '2 Quay St' })).toBe(true);
    expect(addressMoved(owner, { ...owner, houseNumberName: '2' })).toBe(true);
  });
  it('is due only where the old address had been priced and prices now show', () => {
    const moved = { owner: { ...owner, customer_postcode: 'LE1 5WS' }, products: [{}] };
    expect(repricedByAddress({ owner }, moved)).toBe(true);
    expect(repricedByAddress({ owner: {} }, moved), 'the first address given').toBe(false);
    expect(repricedByAddress(null, moved)).toBe(false);
    expect(repricedByAddress({ owner }, { ...moved, products: [] })).toBe(false);
    expect(repricedByAddress({ owner }, { owner, products: [{}] }), 'unchanged').toBe(false);
  });
});
