/**
 * Money as the server sends it: decimal strings in pounds ("28.48", "12", "0"). Sums and
 * differences are worked in whole pence (integers, exact); nothing here uses floating point for
 * money.
 */

/** "28.48" → 2848; "12" → 1200; "-1.5" → -150. Not a number → NaN. */
export function toPence(pounds: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(pounds.trim());
  if (!m) return Number.NaN;
  const pence = Number(m[2]) * 100 + Number((m[3] ?? '0').padEnd(2, '0'));
  return m[1] === '-' ? -pence : pence;
}

/** 2848 → "28.48". */
export function fromPence(pence: number): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(pence);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A price to the penny with its pound sign and thousands separators: "£1,234.50". */
export function price(pounds: string): string {
  const pence = toPence(pounds);
  if (Number.isNaN(pence)) return pounds;
  const [whole, part] = fromPence(Math.abs(pence)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${pence < 0 ? '-' : ''}£${grouped}.${part}`;
}

/** An amount in whole pounds where it is whole ("£99", "£189.10"): journey.md §9. */
export function amount(pounds: string): string {
  const p = price(pounds);
  return p.endsWith('.00') ? p.slice(0, -3) : p;
}
