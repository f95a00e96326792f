/**
 * A phone number as people write it, as the digits the spec's rules are about (owner-payment.md
 * §5 Owner: digits only, 9 to 12, starting 0): spaces, hyphens, dots and brackets
 * dropped, and the UK's +44 or 0044 (with or without a "(0)" after it) written as the leading 0.
 * `null` (left as typed, for the schema to name) when anything else is in it. The server's
 * engine does the same before its rules run (engine/src/rules/domain.rs `phone_digits`); both are
 * tested against `tests/fixtures/phones.json`.
 */
export function phoneDigits(typed: string): string | null {
  const compact = typed.replace(/[ \u00a0\-.()]/g, '');
  const international = compact.startsWith('+44') ? compact.slice(3) : compact.startsWith('0044') ? compact.slice(4) : null;
  const national = international === null ? compact : `0${international.startsWith('0') ? international.slice(1) : international}`;
  return national !== '' && /^[0-9]+$/.test(national) ? national : null;
}
