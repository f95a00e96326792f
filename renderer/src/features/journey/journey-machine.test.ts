// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';

import type { ViewData } from '@/shared/types';
import type { ApiResult } from './api';
import { journeyMachine, submitUrl } from './journey-machine';

function view(stepId: string, path: string, extra: Partial<ViewData> = {}): ViewData {
  return {
    qidu: 'ABCD-EFGH-JKMN',
    csrf: 'token',
    brand: 'pos',
    shell: null,
    channel: 'direct',
    journey: 'direct',
    language: 'en-GB',
    pets: [],
    owner: {},
    step: { id: stepId, path, title: stepId, view: 'form', bar_number: 1, bar_label: 'Your pets', blocks: [] },
    questions: { id: 'pet_details', schema: { $id: 'pawpath:questions/pet_details' }, ui: {}, answers: {}, submit: '/api/petdetails' },
    step_bar: [{ number: 1, label: 'Your pets', status: 'current', clickable: false, path: '/quote' }],
    start_date: { earliest: '2026-11-22', latest: '2026-12-22', options: ['today', 'tomorrow', 'other'], chosen: '2026-11-22', chosen_option: 'today', today: '2026-11-22', tomorrow: '2026-11-23' },
    edits: {},
    products: [],
    summary: { monthly: '0', annual: '0', discounts_monthly: [], discounts_annual: [], multipet_pending: false, every_pet_chosen: false },
    valid_until: '2026-12-22',
    documents: [],
    no_quote_chase_email: false,
    kept_on_reset: false,
    experiments: {},
    payment: {},
    collections: null,
    bank_details: null,
    payment_options: null,
    purchase: null,
    timeouts: { warning_ms: 14280000, reset_ms: 14400000 },
    copy: {},
    ...extra,
  };
}

function start(load: (path: string) => Promise<ApiResult>, submit?: (input: { url: string; csrf: string; answers: Record<string, unknown> }) => Promise<ApiResult>) {
  const followStep = vi.fn();
  const machine = journeyMachine.provide({
    actors: {
      loadView: fromPromise(({ input }: { input: { path: string } }) => load(input.path)),
      submitAnswers: fromPromise(({ input }: { input: { url: string; csrf: string; answers: Record<string, unknown> } }) =>
        submit ? submit(input) : Promise.reject(new Error('no submit expected')),
      ),
    },
    actions: { followStep: (_, params) => followStep(params) },
  });
  const actor = createActor(machine, { input: { path: '/quote' } });
  actor.start();
  return { actor, followStep };
}

describe('journey machine', () => {
  it('loads the page it was opened on and shows the step the server names', async () => {
    const load = vi.fn(async () => ({ kind: 'ok', data: view('pet_details', '/quote') }) as ApiResult);
    const { actor, followStep } = start(load);
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.matches('showing'));
    expect(load).toHaveBeenCalledWith('/quote');
    expect(actor.getSnapshot().context.view?.step.id).toBe('pet_details');
    expect(followStep).toHaveBeenCalledWith({ replace: true });
  });

  it('submits answers with the csrf token and follows the server to the next step', async () => {
    const submit = vi.fn(async () => ({ kind: 'ok', data: view('your_details', '/quote/your-details'), outcome: 'moved' }) as ApiResult);
    const { actor, followStep } = start(async () => ({ kind: 'ok', data: view('pet_details', '/quote') }), submit);
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'step.submit', answers: { pets: [{ pet_name: 'Rex' }] } });
    expect(actor.getSnapshot().value).toBe('submitting');
    await waitFor(actor, (s) => s.matches('showing') && s.context.view?.step.id === 'your_details');
    expect(submit).toHaveBeenCalledWith({ url: '/api/petdetails?norequote=1', csrf: 'token', answers: { pets: [{ pet_name: 'Rex' }] } });
    expect(followStep).toHaveBeenLastCalledWith({ replace: false });
    expect(actor.getSnapshot().context.viewVersion).toBe(2);
  });

  it('loads a step the quote cannot open again as it stands is loaded again as it stands, with a notice', async () => {
    const load = vi
      .fn<(path: string) => Promise<ApiResult>>()
      .mockResolvedValueOnce({ kind: 'ok', data: view('your_details', '/quote/your-details') })
      .mockResolvedValueOnce({ kind: 'ok', data: view('pet_details', '/quote') });
    const submit = vi.fn(async () => ({ kind: 'closed', message: 'The step "your_details" cannot be opened yet' }) as ApiResult);
    const { actor } = start(load, submit);
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'step.submit', answers: { owner: {} } });
    await waitFor(actor, (s) => s.matches('showing') && s.context.view?.step.id === 'pet_details');
    expect(load).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().context.notice).toEqual({ kind: 'error', title: 'toast.step_closed.title', body: 'toast.step_closed.body' });
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it('keeps the step and stores the field errors when the server refuses the answers', async () => {
    const errors = [{ field: 'pets[0].pet_name', message: "Your pet's name cannot contain special characters" }];
    const { actor } = start(async () => ({ kind: 'ok', data: view('pet_details', '/quote') }), async () => ({ kind: 'invalid', errors }));
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'step.submit', answers: {} });
    await waitFor(actor, (s) => s.matches('showing') && s.context.submissions === 1);
    expect(actor.getSnapshot().context.serverErrors).toEqual(errors);
    expect(actor.getSnapshot().context.view?.step.id).toBe('pet_details');
    expect(actor.getSnapshot().context.viewVersion).toBe(1);
  });

  it('shows the generic failure when a submission fails, and keeps the step', async () => {
    const { actor } = start(async () => ({ kind: 'ok', data: view('pet_details', '/quote') }), async () => Promise.reject(new TypeError('network down')));
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'step.submit', answers: {} });
    await waitFor(actor, (s) => s.matches('showing') && s.context.failure !== null);
    actor.send({ type: 'toast.dismiss' });
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it('fails a page load it cannot read and tries again when asked', async () => {
    let calls = 0;
    const { actor } = start(async () => (++calls === 1 ? { kind: 'failed', status: 500, message: 'internal' } : { kind: 'ok', data: view('pet_details', '/quote') }));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.failure).toBe('internal');
    actor.send({ type: 'page.retry' });
    await waitFor(actor, (s) => s.matches('showing'));
    expect(calls).toBe(2);
  });

  it('does not submit a step that has no questions', async () => {
    const pending = view('your_details', '/quote/your-details', { questions: null });
    const { actor } = start(async () => ({ kind: 'ok', data: pending }));
    await waitFor(actor, (s) => s.matches('showing'));
    expect(actor.getSnapshot().can({ type: 'step.submit', answers: {} })).toBe(false);
  });

  it('opens another page through the server', async () => {
    const load = vi.fn(async (path: string) => ({ kind: 'ok', data: view(path === '/quote' ? 'pet_details' : 'your_details', path) }) as ApiResult);
    const { actor } = start(load);
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'page.open', path: '/quote/your-details' });
    await waitFor(actor, (s) => s.matches('showing') && s.context.view?.step.id === 'your_details');
    expect(load).toHaveBeenLastCalledWith('/quote/your-details');
  });
});

describe('removing a pet', () => {
  it('stays on the page, loads it again and says so', async () => {
    const load = vi.fn(async () => ({ kind: 'ok', data: view('pet_details', '/quote') }) as ApiResult);
    const remove = vi.fn(async (_input: { id: number; csrf: string }) => ({ kind: "ok", data: view("your_details", "/quote/your-details") }) as ApiResult);
    const machine = journeyMachine.provide({
      actors: {
        loadView: fromPromise(() => load()),
        removePet: fromPromise(({ input }: { input: { id: number; csrf: string } }) => remove(input)),
      },
      actions: { followStep: () => {} },
    });
    const actor = createActor(machine, { input: { path: '/quote' } });
    actor.start();
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'pet.remove', id: 2 });
    await waitFor(actor, (s) => s.matches('showing') && load.mock.calls.length === 2);
    expect(remove).toHaveBeenCalledWith({ id: 2, csrf: 'token' });
    expect(actor.getSnapshot().context.view?.step.id).toBe('pet_details');
    expect(actor.getSnapshot().context.notice?.body).toBe('toast.remove_pet.success.body');
  });

  it('shows the failure toast when the server refuses', async () => {
    const machine = journeyMachine.provide({
      actors: {
        loadView: fromPromise(async () => ({ kind: 'ok', data: view('pet_details', '/quote') }) as ApiResult),
        removePet: fromPromise(async () => ({ kind: 'invalid', errors: [{ field: 'id', message: 'x' }] }) as ApiResult),
      },
      actions: { followStep: () => {} },
    });
    const actor = createActor(machine, { input: { path: '/quote' } });
    actor.start();
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'pet.remove', id: 1 });
    await waitFor(actor, (s) => s.matches('showing') && s.context.notice !== null);
    expect(actor.getSnapshot().context.notice?.body).toBe('toast.remove_pet.failure.body');
  });
});

describe('submitUrl (journey.md §4 Pet details: norequote=1 on the first page with no products)', () => {
  it('adds norequote=1 on the first page while no pet has a product', () => {
    expect(submitUrl(view('pet_details', '/quote'))).toBe('/api/petdetails?norequote=1');
  });
  it('re-quotes once a pet has a product', () => {
    expect(submitUrl(view('pet_details', '/quote', { pets: [{ product: { Code: 'LT04000' } }] }))).toBe('/api/petdetails');
  });
  it('re-quotes from any other page', () => {
    expect(submitUrl(view('review', '/quote/review'))).toBe('/api/petdetails');
  });
});

describe('a modal\'s answers (journey.md §4: assumptions, pre-existing conditions, start date)', () => {
  const page = () => ({ kind: 'ok', data: view('assumptions', '/quote/assumptions') }) as ApiResult;

  it('saves through the modal\'s call with its form, reloads the page it is on and shows its toast', async () => {
    const load = vi.fn(async () => page());
    const submit = vi.fn(async () => ({ kind: 'ok', data: view('payment', '/quote/payment'), outcome: 'moved' }) as ApiResult);
    const { actor } = start(load, submit);
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'edit.submit', form: 'start_date', call: '/api/ownerdetail', answers: { owner: { pet_policy_start_date: '2026-11-23' } }, notice: 'start_date.saved' });
    expect(actor.getSnapshot().value).toBe('editing');
    await waitFor(actor, (s) => s.matches('showing') && load.mock.calls.length === 2);
    expect(submit).toHaveBeenCalledWith({ url: '/api/ownerdetail', csrf: 'token', answers: { owner: { pet_policy_start_date: '2026-11-23' }, form: 'start_date' } });
    expect(load).toHaveBeenLastCalledWith('/quote/assumptions');
    expect(actor.getSnapshot().context.view?.step.id).toBe('assumptions');
    expect(actor.getSnapshot().context.notice).toEqual({ kind: 'success', title: 'toast.success.title', body: 'start_date.saved' });
  });

  it('keeps the modal\'s field errors apart from the page\'s and leaves the page data untouched', async () => {
    const errors = [{ field: 'pets[0].idd', message: "We can't provide cover, as this would not suit your needs." }];
    const { actor } = start(async () => page(), async () => ({ kind: 'invalid', errors }));
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'edit.submit', form: 'assumptions', call: '/api/petdetails', answers: { pets: [{ idd: 'no' }] } });
    await waitFor(actor, (s) => s.matches('showing') && s.context.editSubmissions === 1);
    expect(actor.getSnapshot().context.editErrors).toEqual(errors);
    expect(actor.getSnapshot().context.serverErrors).toEqual([]);
    expect(actor.getSnapshot().context.viewVersion).toBe(1);
  });

  it('treats an answer that stored nothing as a failure: the generic toast, the page data untouched', async () => {
    const { actor } = start(async () => page(), async () => ({ kind: 'ok', data: view('review', '/quote/review'), outcome: 'refused_by_guard' }) as ApiResult);
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'edit.submit', form: 'assumptions', call: '/api/petdetails', answers: { pets: [] } });
    await waitFor(actor, (s) => s.matches('showing') && s.context.failure !== null);
    expect(actor.getSnapshot().context.view?.step.id).toBe('assumptions');
    expect(actor.getSnapshot().context.viewVersion).toBe(1);
  });

  it('sends a change without a form name as it is (journey.md §7 /api/getFlexProducts) and shows its answer: one call per change', async () => {
    const requoted = view('choose_policy', '/quote/choose-policy', { qidu: 'REQU-OTED-0001' });
    const submit = vi.fn(async () => ({ kind: 'ok' as const, data: requoted, outcome: 'moved' }));
    const loads: string[] = [];
    const { actor } = start(async (path) => {
      loads.push(path);
      return { kind: 'ok', data: view('choose_policy', '/quote/choose-policy') };
    }, submit);
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'edit.submit', call: '/api/getFlexProducts', answers: { pets: [{ id: 1, set_excess: '149', set_coins: 0.1 }] } });
    await waitFor(actor, (s) => s.matches('showing') && s.context.viewVersion === 2);
    expect(submit).toHaveBeenCalledWith({ url: '/api/getFlexProducts', csrf: 'token', answers: { pets: [{ id: 1, set_excess: '149', set_coins: 0.1 }] } });
    expect(loads).toEqual(['/quote']);
    expect(actor.getSnapshot().context.view).toBe(requoted);
  });
});
