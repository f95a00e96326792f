/**
 * The string formats question schemas use, for the precompiled validators. The same rules as
 * ajv-formats' full mode (and the server's jsonschema crate): only these are shipped, so the
 * browser does not carry URI and e-mail parsers the questions never use.
 */
const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** A real calendar date written YYYY-MM-DD. */
export function date(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : DAYS[month]);
}

export const fullFormats = {
  date: { validate: date },
};
