/**
 * Money as the server sends it: decimal strings ("28.48", "12", "0"). Sums and differences are
 * worked in whole pence (integers, exact); nothing here uses floating point for money.
 *
 * Amounts are written in the brand's currency for the page's language (owner-payment.md §9
 * Currency: £ (GBP), EUR in the French variant; prices to 2 decimals unless whole). The engine
 * writes the same strings (engine/src/definitions/money.rs); both pass engine/tests/fixtures/money.json.
 */
import { createContext, useContext } from 'react';

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

export type Currency = 'GBP' | 'EUR';

/** Writes amounts in one currency for readers of one language. */
export interface Money {
  currency: Currency;
  /** "£" or "€". */
  symbol: string;
  /** Whether the symbol follows the number ("1 234,50 €") rather than leading it ("£1,234.50"). */
  symbolAfter: boolean;
  /** To the penny: "£1,234.50", "1 234,50 €". */
  price(value: string): string;
  /** Whole amounts without decimals, others to the penny: "£99", "£189.10", "4 000 €". */
  amount(value: string): string;
}

const SYMBOLS: Record<Currency, string> = { GBP: '£', EUR: '€' };

/** The formatter for `currency` read in `language` ("fr" tags write French numbers). */
export function moneyFormat(currency: Currency = 'GBP', language = 'en-GB'): Money {
  const french = language === 'fr' || language.startsWith('fr-');
  const symbol = SYMBOLS[currency] ?? '£';
  const [group, decimal] = french ? ['\u202f', ','] : [',', '.'];
  const write = (value: string, dropWhole: boolean): string => {
    const pence = toPence(value);
    if (Number.isNaN(pence)) return value;
    const [whole, part] = fromPence(Math.abs(pence)).split('.');
    const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
    const number = dropWhole && part === '00' ? grouped : `${grouped}${decimal}${part}`;
    const sign = pence < 0 ? '-' : '';
    return french ? `${sign}${number}\u00a0${symbol}` : `${sign}${symbol}${number}`;
  };
  return {
    currency,
    symbol,
    symbolAfter: french,
    price: (value) => write(value, false),
    amount: (value) => write(value, true),
  };
}

/** Pounds in British English: the pages' money until the view data says otherwise. */
export const sterling = moneyFormat('GBP', 'en-GB');

/** The page's money: App provides the quote's brand currency in the quote's language. */
export const MoneyContext = createContext<Money>(sterling);

export function useMoney(): Money {
  return useContext(MoneyContext);
}

const SPACE = /^[\s\u00a0\u202f]+|[\s\u00a0\u202f]+$/g;

/**
 * An amount as people type it, as the number the rule is about (journey.md §5 pet_cost): the brand's own symbol before or after it and the thousands grouping ("1,200" in pounds,
 * "1 200" with any space) dropped, a decimal comma in euros made a point. Anything else is left
 * as typed, for the schema to name. The server does the same (engine plain_amount); both are
 * tested against tests/fixtures/amounts.json.
 */
export function plainAmount(typed: string, currency: Currency): string {
  const symbol = SYMBOLS[currency];
  const trimmed = typed.replace(SPACE, '');
  let number = trimmed;
  if (number.startsWith(symbol)) number = number.slice(symbol.length);
  else if (number.endsWith(symbol)) number = number.slice(0, -symbol.length);
  number = number.replace(SPACE, '');
  let whole = number;
  let fraction: string | null = null;
  const decimalComma = currency === 'EUR' ? /^(.*),(\d{1,2})$/.exec(number) : null;
  if (decimalComma) [whole, fraction] = [decimalComma[1], decimalComma[2]];
  else if (number.includes('.')) [whole, fraction] = [number.slice(0, number.indexOf('.')), number.slice(number.indexOf('.') + 1)];
  const groups = whole.split(currency === 'GBP' ? /[\s\u00a0\u202f,]/ : /[\s\u00a0\u202f]/);
  const well =
    groups.every((g) => /^\d+$/.test(g)) && (groups.length === 1 || groups[0].length <= 3) && groups.slice(1).every((g) => g.length === 3);
  if (!well) return typed;
  return fraction === null ? groups.join('') : `${groups.join('')}.${fraction}`;
}
