import { afterEach, describe, expect, it, vi } from 'vitest';

import { forgetViews, markViewed } from '@/shared/experiments';
import { assemble, loadView, markReadOnly, requestConfirmationEmail, resetQuote, resolveShared, seedCatalogue, submitAnswers } from './api';

describe('the call helper (journey.md §7)', () => {
  afterEach(forgetViews);

  function fakeFetch() {
    return vi.fn(async () => new Response(JSON.stringify({ data: {} }), { status: 200, headers: { 'Content-Type': 'application/json' } }));
  }

  it('adds the token and locale, and no experiment views before a variation is shown', async () => {
    const fetcher = fakeFetch();
    await submitAnswers('/api/saveCover', 'token', { pets: [] }, fetcher as unknown as typeof fetch);
    const body = JSON.parse((fetcher.mock.calls[0] as unknown as [string, RequestInit])[1].body as string);
    expect(body).toEqual({ csrf: 'token', locale: 'en-GB', pets: [] });
  });

  it('adds the experiment views the page has shown (journey.md §6)', async () => {
    markViewed('cover_type_guide', 'guide');
    markViewed('cover_type_guide', 'guide');
    const fetcher = fakeFetch();
    await submitAnswers('/api/saveCover', 'token', { pets: [] }, fetcher as unknown as typeof fetch);
    const body = JSON.parse((fetcher.mock.calls[0] as unknown as [string, RequestInit])[1].body as string);
    expect(body.experiment_views).toEqual(['cover_type_guide:guide']);
  });
});

describe('the confirmation email request (owner-payment.md §4 Confirmation, §7)', () => {
  it('reads the confirmation for its token, then asks with send_confirmation_email=1', async () => {
    const fetcher = vi.fn(async (url: string) =>
      url === '/api/confirmation'
        ? new Response(JSON.stringify({ data: { csrf: 'fresh' } }), { status: 200 })
        : new Response(JSON.stringify({ data: { confirmation_email: { sent: false } } }), { status: 200 }),
    );
    expect(await requestConfirmationEmail(fetcher as unknown as typeof fetch)).toBe(true);
    const calls = fetcher.mock.calls as unknown as [string, RequestInit | undefined][];
    expect(calls.map((c) => c[0])).toEqual(['/api/confirmation', '/api/confirmationEmail']);
    expect(JSON.parse(calls[1][1]?.body as string)).toEqual({ csrf: 'fresh', locale: 'en-GB', send_confirmation_email: 1 });
  });

  it('does not ask when the confirmation cannot be read, and never throws', async () => {
    const refused = vi.fn(async () => new Response('{}', { status: 404 }));
    expect(await requestConfirmationEmail(refused as unknown as typeof fetch)).toBe(false);
    expect(refused).toHaveBeenCalledTimes(1);
    const offline = vi.fn(async () => {
      throw new TypeError('offline');
    });
    expect(await requestConfirmationEmail(offline as unknown as typeof fetch)).toBe(false);
  });
});

describe('the view data as the pages use it (each value sent once)', () => {
  it('puts the shared values back and joins each pet with its chosen product', () => {
    const data = {
      pets: [{ pet_name: 'Rex', product: { Code: 'LT04000', RecurringMonthly: '28.48' } }, { pet_name: 'Bess', product: { Code: 'MB04000' } }],
      products: [
        { Code: 'LT04000', petid: 1, RecurringMonthly: '28.48', PolicyTerms: { $ref: 2 }, ClaimExample: { $ref: 3 } },
        { Code: 'MB04000', petid: 2, RecurringMonthly: '9.10', PolicyTerms: { $ref: 2 }, ClaimExample: { $ref: 3 } },
      ],
      shared: [{ desc: 'benefit.vet_fees', val: '£4,000' }, { desc: 'benefit.tpl' }, [{ $ref: 0 }, { $ref: 1 }], { Bill: '1000', Warnings: [] }],
    } as unknown as Parameters<typeof assemble>[0];
    const view = assemble(data, { 'app.brand': 'Acorn' });
    expect(view.products[0].PolicyTerms).toEqual([{ desc: 'benefit.vet_fees', val: '£4,000' }, { desc: 'benefit.tpl' }]);
    expect(view.products[1].ClaimExample).toEqual({ Bill: '1000', Warnings: [] });
    // A priced choice is the whole product; a code the pet is not offered stays as it is.
    expect(view.pets[0].product).toEqual(view.products[0]);
    expect(view.pets[1].product).toEqual({ Code: 'MB04000' });
    expect(view.copy).toEqual({ 'app.brand': 'Acorn' });
    expect('shared' in view).toBe(false);
  });

  it('leaves an object that only looks like a reference alone', () => {
    expect(resolveShared({ $ref: 0, other: 1 }, ['x'])).toEqual({ $ref: 0, other: 1 });
    expect(resolveShared([{ $ref: 1 }], ['a', { b: { $ref: 0 } }])).toEqual([{ b: 'a' }]);
  });

  it('fetches a copy catalogue once per address, and not at all for the one the page carries', async () => {
    seedCatalogue('/quote/definitions/v1/copy/pos/en-GB', { 'app.brand': 'Seeded' });
    const fetcher = vi.fn(async (url: string) =>
      url.startsWith('/quote/definitions/')
        ? new Response(JSON.stringify({ 'app.brand': 'Fetched' }), { status: 200 })
        : new Response(JSON.stringify({ data: { step: { id: 'x' }, copy_url: url === '/a' ? '/quote/definitions/v1/copy/pos/en-GB' : '/quote/definitions/v1/copy/pos/fr-FR' } }), { status: 200 }),
    );
    const first = await loadView('/a', fetcher as unknown as typeof fetch);
    expect(first.kind === 'ok' && first.data.copy['app.brand']).toBe('Seeded');
    const second = await loadView('/b', fetcher as unknown as typeof fetch);
    const third = await loadView('/b', fetcher as unknown as typeof fetch);
    expect(second.kind === 'ok' && second.data.copy['app.brand']).toBe('Fetched');
    expect(third.kind === 'ok' && third.data.copy['app.brand']).toBe('Fetched');
    const copyCalls = (fetcher.mock.calls as unknown as [string][]).filter(([url]) => url.startsWith('/quote/definitions/'));
    expect(copyCalls.map(([url]) => url)).toEqual(['/quote/definitions/v1/copy/pos/fr-FR']);
  });
});

describe("question sets' forms come from their own addresses", () => {
  it('fetches each form once, puts in its schema and UI hints, and marks the locked answers read-only', async () => {
    const formUrl = '/quote/definitions/v1/questions/pos/en-GB/your_details';
    const fetcher = vi.fn(async (url: string) => {
      if (url === formUrl) return new Response(JSON.stringify({ schema: { $id: 'pawpath:questions/your_details', type: 'object' }, ui: { owner: { customer_first_name: { 'ui:title': 'First name' } } } }), { status: 200 });
      return new Response(
        JSON.stringify({ data: { step: { id: 'your_details' }, copy: {}, locked: ['/owner/customer_first_name'], questions: { id: 'your_details', answers: {}, submit: '/api/ownerdetail', form: formUrl }, edits: { promo_code: { id: 'your_details', answers: {}, submit: '/api/ownerdetail', form: formUrl } } } }),
        { status: 200 },
      );
    });
    const first = await loadView('/quote/your-details', fetcher as unknown as typeof fetch);
    const second = await loadView('/quote/your-details', fetcher as unknown as typeof fetch);
    expect(first.kind).toBe('ok');
    if (first.kind !== 'ok' || second.kind !== 'ok') return;
    expect(first.data.questions?.schema.$id).toBe('pawpath:questions/your_details');
    expect(first.data.questions?.ui).toEqual({ owner: { customer_first_name: { 'ui:title': 'First name', 'ui:readonly': true } } });
    // The modal's copy of the same form is its own: the lock marks only the step's form.
    expect(first.data.edits.promo_code?.ui).toEqual({ owner: { customer_first_name: { 'ui:title': 'First name' } } });
    expect(second.data.questions?.ui).toEqual(first.data.questions?.ui);
    const formCalls = (fetcher.mock.calls as unknown as [string][]).filter(([url]) => url === formUrl);
    expect(formCalls).toHaveLength(1);
  });

  it('marks a pointer read-only, making the objects on the way', () => {
    const ui: Record<string, unknown> = { owner: {} };
    markReadOnly(ui, '/owner/customer_last_name');
    markReadOnly(ui, '/payment/account_name');
    expect(ui).toEqual({ owner: { customer_last_name: { 'ui:readonly': true } }, payment: { account_name: { 'ui:readonly': true } } });
  });
});

describe('starting again (journey.md §2 Inactivity timeout)', () => {
  const answering = (body: unknown, status = 200) =>
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));

  it('goes where the server says the new quote starts: the same journey, brand and tracking token', async () => {
    const fetcher = answering({ data: { success: true, start: '/aggregators/quote?brand=sbp&tracking_token=tv_campaign' } });
    expect(await resetQuote('token', '/quote?brand=sbp', fetcher as unknown as typeof fetch)).toEqual({
      start: '/aggregators/quote?brand=sbp&tracking_token=tv_campaign',
      retrieve: null,
    });
  });

  it('goes back to a quote kept for retrieval only on this site', async () => {
    const kept = answering({ data: { success: true, start: '/quote?brand=pos', retrieve: '/quote/retrieve-quote?brand=pos&reference=ABCD-EFGH-JKMN' } });
    expect(await resetQuote('token', '/quote?brand=pos', kept as unknown as typeof fetch)).toEqual({
      start: '/quote?brand=pos',
      retrieve: '/quote/retrieve-quote?brand=pos&reference=ABCD-EFGH-JKMN',
    });
    const elsewhere = answering({ data: { success: true, start: '/quote?brand=pos', retrieve: '//elsewhere.example/' } });
    expect((await resetQuote('token', '/quote?brand=pos', elsewhere as unknown as typeof fetch)).retrieve).toBeNull();
  });

  it("keeps the page's brand when the call fails or answers no start on this site", async () => {
    const failing = vi.fn(async () => {
      throw new Error('offline');
    });
    expect((await resetQuote('token', '/quote?brand=ich', failing as unknown as typeof fetch)).start).toBe('/quote?brand=ich');
    for (const start of ['//elsewhere.example/quote', 'https://elsewhere.example/', 42]) {
      const fetcher = answering({ data: { success: true, start } });
      expect((await resetQuote('token', '/quote?brand=ich', fetcher as unknown as typeof fetch)).start).toBe('/quote?brand=ich');
    }
  });
});
