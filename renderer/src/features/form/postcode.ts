/**
 * The owner's postcode rule (owner-payment.md §5 Owner), the same as the server's
 * (engine/src/definitions/postcode.rs): spaces ignored, upper case, one space before the last three
 * characters, GIR 0AA included. Both are tested against tests/fixtures/postcodes.json.
 */
const OUTWARD = /^[A-PR-UWYZ][A-HK-Y]?[0-9][A-Z0-9]?$/;
const INWARD = /^[0-9][ABD-HJLNP-UW-Z]{2}$/;

/** The formatted postcode, or null when it is not a UK postcode. */
export function formatPostcode(typed: string): string | null {
  const compact = typed.replace(/\s+/g, '').toUpperCase();
  if (compact.length < 5 || compact.length > 7) return null;
  const outward = compact.slice(0, -3);
  const inward = compact.slice(-3);
  if (compact === 'GIR0AA' || (OUTWARD.test(outward) && INWARD.test(inward))) return `${outward} ${inward}`;
  return null;
}
