/**
 * The API client: JSON over fetch, same-origin cookies. It returns results and never decides
 * what the customer sees; the journey machine does.
 */
import { postHeaders } from '@/shared/post-headers';
import { experimentViews } from '@/shared/experiments';
import { prepareView } from '@/shared/on-demand';
import type { FieldMessage, QuestionsView, ViewData } from '@/shared/types';

export type ApiResult =
  | { kind: 'ok'; data: ViewData; outcome?: string }
  | { kind: 'invalid'; errors: FieldMessage[] }
  | { kind: 'failed'; status: number; message: string }
  /** A step or form the quote cannot open yet; nothing was stored. */
  | { kind: 'closed'; message: string }
  /** The card's issuer asks the customer to authenticate (3-D Secure): the browser goes to `url` and comes back. */
  | { kind: 'authenticate'; url: string };

/** The page's language, as the shared helper's `locale` (journey.md §7: default en-GB). */
function pageLocale(): string {
  return (typeof document !== 'undefined' && document.documentElement.lang) || 'en-GB';
}

/**
 * Copy catalogues by address: each address carries the definitions version, so what
 * it answers never changes and is fetched once per page load (the HTML's own catalogue seeds it).
 */
const catalogues = new Map<string, Promise<Record<string, string>>>();

/** The page's first catalogue, written into the HTML: no call for it. */
export function seedCatalogue(url: string | undefined, copy: Record<string, string>) {
  if (url && Object.keys(copy).length > 0 && !catalogues.has(url)) catalogues.set(url, Promise.resolve(copy));
}

function catalogue(url: string, fetcher: typeof fetch): Promise<Record<string, string>> {
  let found = catalogues.get(url);
  if (!found) {
    found = fetcher(url, { credentials: 'same-origin' }).then(async (r) => {
      if (!r.ok) throw new Error(`copy: ${r.status}`);
      return (await r.json()) as Record<string, string>;
    });
    // A failed fetch is not kept: the next page tries again.
    found.catch(() => catalogues.delete(url));
    catalogues.set(url, found);
  }
  return found;
}

type Form = { schema: QuestionsView['schema']; ui: Record<string, unknown> };

/** Question sets' forms by address: the same for every quote of a brand and language. */
const forms = new Map<string, Promise<Form>>();

function form(url: string, fetcher: typeof fetch): Promise<Form> {
  let found = forms.get(url);
  if (!found) {
    found = fetcher(url, { credentials: 'same-origin' }).then(async (r) => {
      if (!r.ok) throw new Error(`form: ${r.status}`);
      return (await r.json()) as Form;
    });
    found.catch(() => forms.delete(url));
    forms.set(url, found);
  }
  return found;
}

/** Every question set a view carries: its step's, its modals', the card form's. */
function questionViews(data: ViewData): QuestionsView[] {
  const all = [data.questions, ...Object.values(data.edits ?? {}), data.payment_options?.card?.questions];
  return all.filter((q): q is QuestionsView => !!q && typeof q === 'object');
}

/** Puts each question set's form into the view: its schema, and UI hints of its own (a copy). */
async function withForms(data: ViewData, fetcher: typeof fetch): Promise<void> {
  await Promise.all(
    questionViews(data)
      .filter((q) => q.form && !q.schema)
      .map(async (q) => {
        const f = await form(q.form as string, fetcher);
        q.schema = f.schema;
        q.ui = structuredClone(f.ui);
      }),
  );
  // The answers a lock keeps (a matched existing policy) are shown read-only.
  if (data.questions?.ui) for (const pointer of data.locked ?? []) markReadOnly(data.questions.ui, pointer);
}

/** Marks the UI hints at a document pointer (`/owner/customer_first_name`) read-only. */
export function markReadOnly(ui: Record<string, unknown>, pointer: string) {
  let node = ui;
  for (const segment of pointer.split('/').slice(1)) {
    const next = node[segment];
    node[segment] = next && typeof next === 'object' ? next : {};
    node = node[segment] as Record<string, unknown>;
  }
  node['ui:readonly'] = true;
}

/** Replaces each `{"$ref": n}` with the view's `shared[n]`, at any depth. */
export function resolveShared(value: unknown, shared: unknown[]): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveShared(v, shared));
  if (value && typeof value === 'object') {
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'number' && Object.keys(value).length === 1) return resolveShared(shared[ref], shared);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveShared(v, shared)]));
  }
  return value;
}

/**
 * The view data as the pages use it: the products' shared values put back, each pet's chosen
 * product (stored as its code and monthly price) joined with its priced product, and the copy.
 */
export function assemble(data: ViewData & { shared?: unknown[] }, copy: Record<string, string>): ViewData {
  const products = (data.products ?? []).map((p) => resolveShared(p, data.shared ?? []) as ViewData['products'][number]);
  const pets = (data.pets ?? []).map((pet, i) => {
    const chosen = pet.product as { Code?: string; RecurringMonthly?: string } | undefined;
    const full = chosen?.RecurringMonthly !== undefined ? products.find((p) => p.petid === i + 1 && p.Code === chosen.Code) : undefined;
    return full ? { ...pet, product: full } : pet;
  });
  const { shared: _shared, ...rest } = data;
  return { ...rest, products, pets, copy };
}

async function read(response: Response, fetcher: typeof fetch = fetch): Promise<ApiResult> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { kind: 'failed', status: response.status, message: 'The server did not answer with JSON.' };
  }
  const b = body as { data?: ViewData; outcome?: string; error?: string; errors?: FieldMessage[]; message?: string };
  if (response.ok && b.data) {
    // The view's copy catalogue comes from its own address, fetched once, beside its forms.
    const copyUrl = b.data.copy_url;
    const copy = b.data.copy ?? (copyUrl ? catalogue(copyUrl, fetcher).catch(() => null) : Promise.resolve({}));
    // Its forms too, each fetched once (each form's schema is all the browser needs to validate
    // it: json-schema.ts interprets it). And the code of the page it shows, and of the widgets its forms name.
    const code = prepareView(b.data);
    code.catch(() => undefined);
    try {
      await withForms(b.data, fetcher);
    } catch {
      return { kind: 'failed', status: 0, message: 'Part of the page could not be loaded.' };
    }
    // Once more with its forms in: the widgets they name.
    const formsCode = prepareView(b.data);
    formsCode.catch(() => undefined);
    try {
      await code;
      await formsCode;
      forget(RELOADED_FOR_CHUNKS);
    } catch {
      // A release since this page was opened renamed its chunks: the page itself is out of date.
      // Open it again once (the new release's page, with the answers kept by the server).
      if (remember(RELOADED_FOR_CHUNKS)) window.location.reload();
      return { kind: 'failed', status: 0, message: 'Part of the page could not be loaded.' };
    }
    const words = await copy;
    if (!words) return { kind: 'failed', status: 0, message: 'Part of the page could not be loaded.' };
    return { kind: 'ok', data: assemble(b.data, words), outcome: b.outcome };
  }
  if (response.status === 422 && b.error === 'validation' && Array.isArray(b.errors)) return { kind: 'invalid', errors: b.errors };
  if (response.status === 409 && b.error === 'step_closed') return { kind: 'closed', message: b.message ?? '' };
  return { kind: 'failed', status: response.status, message: b.message ?? b.error ?? 'Unknown error' };
}

const RELOADED_FOR_CHUNKS = 'pawpath:reloaded-for-chunks';

/** Notes a flag for this tab; false if it was already noted (or the tab keeps nothing). */
function remember(flag: string): boolean {
  try {
    if (sessionStorage.getItem(flag)) return false;
    sessionStorage.setItem(flag, '1');
    return true;
  } catch {
    return false;
  }
}

function forget(flag: string) {
  try {
    sessionStorage.removeItem(flag);
  } catch {
    // A tab that keeps nothing has nothing to forget.
  }
}

/** What the shared helper adds to every payload besides the token and locale (journey.md §7). */
function helperFields(): { experiment_views?: string[] } {
  const views = experimentViews();
  return views.length > 0 ? { experiment_views: views } : {};
}

/**
 * The first page's view data, asked for as the script starts from the address the HTML preloads
 * (one round trip after the HTML, not a chain), and taken by the first `loadView` of
 * that page.
 */
let firstView: { path: string; response: Promise<Response> } | null = null;

export function startFirstView(path: string, url: string | undefined, fetcher: typeof fetch = fetch) {
  if (!url) return;
  // As the HTML's <link rel="preload" as="fetch" crossorigin> asks, so the browser hands over that
  // answer rather than asking again (no headers of its own; the address answers JSON).
  const response = fetcher(url, { credentials: 'same-origin' });
  response.catch(() => undefined);
  firstView = { path, response };
}

/** Loads a page's view data. */
export async function loadView(path: string, fetcher: typeof fetch = fetch): Promise<ApiResult> {
  const first = firstView;
  firstView = null;
  const response = await (first?.path === path
    ? first.response
    : fetcher(path, { headers: { Accept: 'application/json' }, credentials: 'same-origin' }));
  return read(response, fetcher);
}

/** Posts a step's answers with the CSRF token and the locale the shared helper adds (journey.md §7). */
export async function submitAnswers(
  url: string,
  csrf: string,
  answers: Record<string, unknown>,
  fetcher: typeof fetch = fetch,
): Promise<ApiResult> {
  const response = await fetcher(url, {
    method: 'POST',
    headers: postHeaders(csrf),
    credentials: 'same-origin',
    body: JSON.stringify({ csrf, locale: pageLocale(), ...helperFields(), ...answers }),
  });
  return read(response, fetcher);
}

/**
 * The language chooser (journey.md §1: only where the brand has more than one language): the
 * quote keeps the language; the answer is the view data in it.
 */
export async function setLanguage(language: string, csrf: string, fetcher: typeof fetch = fetch): Promise<ApiResult> {
  try {
    const response = await fetcher('/api/language', {
      method: 'POST',
      headers: postHeaders(csrf),
      credentials: 'same-origin',
      body: JSON.stringify({ csrf, language, locale: pageLocale(), ...helperFields() }),
    });
    return await read(response, fetcher);
  } catch {
    return { kind: 'failed', status: 0, message: 'The server could not be reached.' };
  }
}

/** Removes a pet by its 1-based id (journey.md §7 /api/deletePet). */
export async function removePet(id: number, csrf: string, fetcher: typeof fetch = fetch): Promise<ApiResult> {
  const response = await fetcher('/api/deletePet', {
    method: 'POST',
    headers: postHeaders(csrf),
    credentials: 'same-origin',
    body: JSON.stringify({ id, csrf, locale: pageLocale(), ...helperFields() }),
  });
  return read(response, fetcher);
}

/**
 * owner-payment.md §4 Bank validation, §7: the form's bank details (the sort code without
 * dashes) → whether Vocalink's checks accept them; null when the server could not answer.
 */
export async function validateBank(
  csrf: string,
  payment: { sort_code?: string; account_number?: string },
  fetcher: typeof fetch = fetch,
): Promise<boolean | null> {
  try {
    const response = await fetcher('/api/bankvalidation', {
      method: 'POST',
      headers: postHeaders(csrf),
      credentials: 'same-origin',
      body: JSON.stringify({
        csrf,
        locale: pageLocale(),
        ...helperFields(),
        payment: { sort_code: (payment.sort_code ?? '').replace(/-/g, ''), account_number: payment.account_number ?? '' },
      }),
    });
    if (!response.ok) return null;
    const body = (await response.json()) as { data?: { payment?: { bank_details_valid?: boolean } } };
    return typeof body.data?.payment?.bank_details_valid === 'boolean' ? body.data.payment.bank_details_valid : null;
  } catch {
    return null;
  }
}

/** What the payment provider answers for a card: a token, and what a receipt shows. */
export type CardTokenResult =
  | { kind: 'ok'; token: string; issuer: string; last4: string }
  | { kind: 'invalid'; errors: FieldMessage[] }
  | { kind: 'failed' };

/**
 * Sends the card form to the payment provider (never to pawpath's API): owner-payment.md §2
 * Payment page card form. pawpath is sent only the token it answers with.
 */
export async function tokeniseCard(
  provider: { tokenise_url: string; publishable_key: string },
  card: Record<string, unknown>,
  language: string,
  fetcher: typeof fetch = fetch,
): Promise<CardTokenResult> {
  try {
    const response = await fetcher(provider.tokenise_url, {
      method: 'POST',
      // The provider answers field errors in the page's language, as hosted providers take a locale.
      headers: { Accept: 'application/json', 'Accept-Language': language, 'Content-Type': 'application/json', Authorization: `Bearer ${provider.publishable_key}` },
      credentials: 'omit',
      body: JSON.stringify({ card }),
    });
    const body = (await response.json()) as { data?: { token?: string; issuer?: string; last4?: string }; error?: string; errors?: FieldMessage[] };
    if (response.ok && typeof body.data?.token === 'string') {
      return { kind: 'ok', token: body.data.token, issuer: body.data.issuer ?? '', last4: body.data.last4 ?? '' };
    }
    if (response.status === 422 && Array.isArray(body.errors)) return { kind: 'invalid', errors: body.errors };
    return { kind: 'failed' };
  } catch {
    return { kind: 'failed' };
  }
}

/**
 * Buys the quote: one key per purchase attempt, kept in session storage until the
 * purchase is made, so a retry after a dropped connection sends the same key; the server makes
 * one purchase whatever arrives and answers every request with it. A card payment the issuer
 * asks the customer to authenticate (3-D Secure) answers with where to go instead;
 * the key is kept for the request made on coming back (`returned`: the provider's payment id
 * the browser came back with).
 */
export async function purchase(csrf: string, qidu: string, returned: string | null = null, fetcher: typeof fetch = fetch): Promise<ApiResult> {
  const slot = `pawpath.purchase.${qidu}`;
  let key = sessionStorage.getItem(slot);
  if (!key) {
    key = crypto.randomUUID();
    sessionStorage.setItem(slot, key);
  }
  const response = await fetcher('/api/purchase', {
    method: 'POST',
    headers: postHeaders(csrf),
    credentials: 'same-origin',
    body: JSON.stringify({ csrf, locale: pageLocale(), ...helperFields(), idempotency_key: key, ...(returned ? { payment_return: returned } : {}) }),
  });
  if (response.ok) {
    const action = (await response
      .clone()
      .json()
      .catch(() => null)) as { next_action?: { redirect_url?: string } } | null;
    const url = action?.next_action?.redirect_url;
    if (typeof url === 'string' && /^https?:\/\//.test(url)) return { kind: 'authenticate', url };
  }
  const result = await read(response, fetcher);
  // Done, or refused (a declined card): the next attempt is a new one.
  if (result.kind === 'ok' || result.kind === 'invalid') sessionStorage.removeItem(slot);
  return result;
}

/**
 * The confirmation page's email (owner-payment.md §4 Confirmation, §7): the confirmation is read
 * (GET /api/confirmation, for its token), then the email is requested with
 * send_confirmation_email=1. No spinner: the customer has nothing to wait for, and the server
 * sends the email whether or not this call arrives (the purchase queued it). Never throws.
 */
export async function requestConfirmationEmail(fetcher: typeof fetch = fetch): Promise<boolean> {
  try {
    const read = await fetcher('/api/confirmation', { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    if (!read.ok) return false;
    const body = (await read.json()) as { data?: { csrf?: string } };
    if (typeof body.data?.csrf !== 'string') return false;
    const response = await fetcher('/api/confirmationEmail', {
      method: 'POST',
      headers: postHeaders(body.data.csrf),
      credentials: 'same-origin',
      body: JSON.stringify({ csrf: body.data.csrf, locale: pageLocale(), ...helperFields(), send_confirmation_email: 1 }),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Resets the quote (the timeout modal's "Start a new quote"): the server parts it from the
 * session and answers where the new quote starts, on the same journey and brand with the same
 * tracking token (journey.md §2: the journey is reset, not the brand or the channel). When the
 * call cannot be made, `fallback` (this page's brand's start) is where to go.
 */
export async function resetQuote(
  csrf: string,
  fallback: string,
  fetcher: typeof fetch = fetch,
): Promise<{ start: string; retrieve: string | null }> {
  // Only a path on this site.
  const local = (path: unknown): path is string => typeof path === 'string' && path.startsWith('/') && !path.startsWith('//');
  try {
    const response = await fetcher('/api/reset', {
      method: 'POST',
      headers: postHeaders(csrf),
      credentials: 'same-origin',
      body: JSON.stringify({ csrf, locale: pageLocale() }),
    });
    const body = (await response.json()) as { data?: { start?: unknown; retrieve?: unknown } };
    const start = body.data?.start;
    const retrieve = body.data?.retrieve;
    if (local(start)) return { start, retrieve: local(retrieve) ? retrieve : null };
  } catch {
    // The server resets an idle quote on its own clock as well.
  }
  return { start: fallback, retrieve: null };
}
