/**
 * The customer's choice about analytics cookies (following the ICO's guidance on
 * cookies and similar technologies): until they choose, no tag manager, no analytics cookie and
 * no request to an analytics origin; rejecting is as easy as accepting; the choice is remembered
 * for the brand's `ask_again_after_days` and can be changed from every footer.
 *
 * The choice is kept in a first-party cookie per brand, `pawpath_consent_<brand>` = `granted` or
 * `denied` (storing a consent choice is itself strictly necessary), which the server reads too,
 * so the HTML's first paint draws the banner only when there is no choice
 * (server/src/routes/pages.rs consent_choice).
 */
import type { DataLayerEvent } from './types';

export type Choice = 'granted' | 'denied';

const SCRIPT_ID = 'pawpath-tag-manager';
/** After a withdrawal reloads the page, the banner confirms it (sessionStorage, this tab only). */
const CONFIRM_KEY = 'pawpath:consent-confirm';

export function cookieName(brand: string): string {
  return `pawpath_consent_${brand}`;
}

/**
 * The brand's remembered choice, from `document.cookie`'s text; null when there is none. Each
 * cookie is split at its first '=', and the first of the brand's whose value is exactly `granted`
 * or `denied` counts: the server's rule (server/src/routes/pages.rs consent_choice), both held to
 * tests/parity/consent-cookies.json.
 */
export function readChoice(brand: string, cookies: string = document.cookie): Choice | null {
  const name = cookieName(brand);
  for (const pair of cookies.split(';')) {
    const trimmed = pair.trim();
    const at = trimmed.indexOf('=');
    if (at < 0) continue;
    const [k, v] = [trimmed.slice(0, at), trimmed.slice(at + 1)];
    if (k === name && (v === 'granted' || v === 'denied')) return v;
  }
  return null;
}

/** The cookie that remembers a choice for `days` days: for the whole site, never sent cross-site. */
export function choiceCookie(brand: string, choice: Choice, days: number, secure: boolean): string {
  return `${cookieName(brand)}=${choice}; Max-Age=${Math.round(days * 86_400)}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
}

export function writeChoice(brand: string, choice: Choice, days: number) {
  document.cookie = choiceCookie(brand, choice, days, window.location.protocol === 'https:');
}

/** The choice the page is following (set by the page from the brand's cookie and the banner). */
let current: Choice | null = null;

export function currentChoice(): Choice | null {
  return current;
}

export function noteChoice(choice: Choice | null) {
  current = choice;
}

/** Whether this page has loaded the brand's tag manager (it cannot be unloaded, only reloaded away). */
export function tagManagerLoaded(doc: Document = document): boolean {
  return doc.getElementById(SCRIPT_ID) !== null;
}

/**
 * Loads the brand's tag manager once: its start event first (what its own snippet would push;
 * the policy allows no inline snippet), then its script, which reads what the data layer holds
 * and what is pushed after.
 */
export function loadTagManager(script: string, doc: Document = document) {
  if (tagManagerLoaded(doc)) return;
  const layer: DataLayerEvent[] = (window.dataLayer ??= []);
  layer.push({ event: 'gtm.js', 'gtm.start': Date.now() });
  const element = doc.createElement('script');
  element.id = SCRIPT_ID;
  element.async = true;
  element.src = script;
  doc.head.appendChild(element);
}

/** The analytics cookies a tag manager's tags set (Google Analytics and its ads linker). */
const ANALYTICS_COOKIE = /^(_ga|_gid|_gat|_gcl_|_dc_gtm_)/;

/**
 * Deletes the analytics cookies this page can see, on this host and each parent domain they may
 * have been set on; returns the names deleted.
 */
export function deleteAnalyticsCookies(doc: Document = document, host: string = window.location.hostname): string[] {
  const names = doc.cookie
    .split(';')
    .map((pair) => pair.trim().split('=')[0])
    .filter((name) => ANALYTICS_COOKIE.test(name));
  const labels = host.split('.');
  const domains = [''];
  for (let i = 0; i < labels.length - 1; i++) domains.push(`; Domain=.${labels.slice(i).join('.')}`);
  for (const name of names) {
    for (const domain of domains) doc.cookie = `${name}=; Max-Age=0; Path=/${domain}`;
  }
  return names;
}

/** Remembers, across the reload a withdrawal needs, that the banner is to confirm it. */
export function confirmAfterReload(choice: Choice) {
  try {
    window.sessionStorage.setItem(CONFIRM_KEY, choice);
  } catch {
    // Storage refused: the choice is kept all the same, only its confirmation is not shown.
  }
}

/** The choice to confirm after a reload, once. */
export function takeConfirmation(): Choice | null {
  try {
    const value = window.sessionStorage.getItem(CONFIRM_KEY);
    window.sessionStorage.removeItem(CONFIRM_KEY);
    return value === 'granted' || value === 'denied' ? value : null;
  } catch {
    return null;
  }
}
