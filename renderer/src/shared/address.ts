/**
 * owner-payment.md §4 Owner save, §8 Address and policy: "Address changed: info toast 'Your address
 * has been changed. Please note as a result of changing your address your price may have
 * changed.'" The owner's address moved when its postcode, first line or house name or number
 * differs; the toast is due only where a price was already shown for the old address.
 */
const ADDRESS_FIELDS = ['customer_postcode', 'customer_address_line_1', 'houseNumberName'] as const;

export function addressMoved(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  return ADDRESS_FIELDS.some((k) => String(before[k] ?? '') !== String(after[k] ?? ''));
}

/** The address moved on a quote already priced at the old one (it had a postcode, and prices now). */
export function repricedByAddress(
  before: { owner: Record<string, unknown> } | null | undefined,
  after: { owner: Record<string, unknown>; products?: readonly unknown[] },
): boolean {
  if (!before || !String(before.owner.customer_postcode ?? '')) return false;
  return addressMoved(before.owner, after.owner) && (after.products?.length ?? 0) > 0;
}
