/**
 * The journey UI machine: loading a page's view data, showing a step, submitting answers,
 * and failure. The server decides every transition (DESIGN.md principle 2): the machine only
 * follows the step the server answers with.
 */
import { assign, fromPromise, setup } from 'xstate';

import { repricedByAddress } from '@/shared/address';
import type { FieldMessage, ViewData } from '@/shared/types';
import { type ApiResult, loadView, purchase, removePet, submitAnswers } from './api';

export interface JourneyContext {
  /** The page asked for. */
  path: string;
  view: ViewData | null;
  /** Field errors from the server's last answer, shown on their fields. */
  serverErrors: FieldMessage[];
  /** Something other than a field error went wrong: the generic toast. */
  failure: string | null;
  /** The HTTP status of that failure, when there was an answer (404: no such page). */
  failureStatus: number | null;
  /** Counts answers with field errors, so the form can move focus after each one. */
  submissions: number;
  /** Counts view data received. */
  viewVersion: number;
  /**
   * Counts view data that should start a step's form again from the server's answers: every
   * load and submission, but not the refresh after a modal saves, which keeps what the customer
   * has typed on the page.
   */
  formVersion: number;
  /** A toast about something the customer did (copy keys), other than the generic error. */
  notice: Notice | null;
  /** Field errors the server gave a modal's answers; the modal stays open to show them. */
  editErrors: FieldMessage[];
  /** Counts modal answers with field errors, so the modal can move focus after each one. */
  editSubmissions: number;
  /** The toast to show once the modal's answers are saved (copy key), if any. */
  editNotice: { body: string; kind: 'success' | 'info' } | null;
  /** The view shown is the pet details page with a pet just added: its questions take the focus. */
  petAdded: boolean;
  /**
   * The card payment the browser came back with from the customer's bank (3-D Secure:
   * `?payment_intent=` on the page bought from): the purchase is asked for again once the page
   * is loaded, and the server says whether it is bought or the card was declined.
   */
  returned: string | null;
}

/**
 * A change made in place (a step's `edits`): the question set named in the payload's `form` (a
 * call that takes one set, like the re-quote, needs none), its call, the toast on success.
 */
export interface EditRequest {
  form?: string;
  call: string;
  answers: Record<string, unknown>;
  notice?: string;
  /** The toast's kind: success (the default) shows "title: content", info only the content. */
  noticeKind?: 'success' | 'info';
}

/** A toast (copy keys). */
export interface Notice {
  kind: 'success' | 'error' | 'info' | 'warning';
  title: string;
  body: string;
}

export type JourneyEvent =
  | { type: 'page.open'; path: string }
  | { type: 'page.retry' }
  | { type: 'step.submit'; answers: Record<string, unknown> }
  | { type: 'pet.remove'; id: number }
  | { type: 'pet.add' }
  /**
   * journey.md §4 Add another pet on the pet details page: "elsewhere the pets are saved first",
   * then a fresh pet slot, so a reload (or a phone discarding the tab) loses no pet.
   */
  | { type: 'pets.save_and_add'; answers: Record<string, unknown> }
  /** Buy the quote (the bank details panel's Continue). */
  | { type: 'quote.buy' }
  | ({ type: 'edit.submit' } & EditRequest)
  | { type: 'toast.dismiss' }
  /** Something changed the quote outside a form (an existing policy matched): load the page again. */
  | ({ type: 'page.refresh' } & { notice?: Notice })
  /** A toast a widget asks for (the address search's). */
  | ({ type: 'notice.show' } & Notice);

/** The result a finished actor hands to `onDone`. */
function outputOf(event: unknown): ApiResult | undefined {
  return (event as { output?: ApiResult }).output;
}

/**
 * The step's call; on the first page, while no pet has a product, the norequote=1 variant
 * (journey.md §4 Pet details, §7).
 */
export function submitUrl(view: ViewData): string {
  const call = view.questions?.submit ?? '';
  const noProducts = !view.pets.some((pet) => pet.product);
  const firstPage = view.step.path === view.step_bar[0]?.path;
  return firstPage && noProducts ? `${call}?norequote=1` : call;
}

export const journeyMachine = setup({
  types: {
    context: {} as JourneyContext,
    events: {} as JourneyEvent,
    input: {} as { path: string; returned?: string | null },
  },
  actors: {
    loadView: fromPromise<ApiResult, { path: string }>(({ input }) => loadView(input.path)),
    removePet: fromPromise<ApiResult, { id: number; csrf: string }>(({ input }) => removePet(input.id, input.csrf)),
    purchase: fromPromise<ApiResult, { csrf: string; qidu: string; returned: string | null }>(({ input }) => purchase(input.csrf, input.qidu, input.returned)),
    submitAnswers: fromPromise<ApiResult, { url: string; csrf: string; answers: Record<string, unknown> }>(({ input }) =>
      submitAnswers(input.url, input.csrf, input.answers),
    ),
  },
  guards: {
    answeredWithView: ({ event }) => outputOf(event)?.kind === 'ok',
    /** A modal's answers were stored (a page not open yet answers with another outcome). */
    editSaved: ({ event }) => {
      const output = outputOf(event);
      return output?.kind === 'ok' && output.outcome === 'moved';
    },
    /**
     * Stored, and the answer is the page the modal is on as it now stands (a change on the cover
     * page): shown as it is, with no second call for the same page.
     */
    editSavedHere: ({ event, context }) => {
      const output = outputOf(event);
      return output?.kind === 'ok' && output.outcome === 'moved' && output.data.step.id === context.view?.step.id;
    },
    answeredWithFieldErrors: ({ event }) => outputOf(event)?.kind === 'invalid',
    /** Loaded on coming back from the customer's bank: the purchase is asked for again. */
    returnedFromBank: ({ event, context }) => outputOf(event)?.kind === 'ok' && context.returned !== null,
    /** The card's issuer asks the customer to authenticate (3-D Secure). */
    toAuthenticate: ({ event }) => outputOf(event)?.kind === 'authenticate',
    /** The step or form asked for is not open (changed in another window): nothing was stored. */
    stepClosed: ({ event }) => outputOf(event)?.kind === 'closed',
    canSubmit: ({ context }) => Boolean(context.view?.questions?.submit),
  },
  actions: {
    setPath: assign({ path: ({ event }) => (event.type === 'page.open' ? event.path : '') }),
    /** With `petAdded`: a pet was just added on the page the view shows again, whose questions take the focus. */
    storeView: assign(({ event, context }, params: { petAdded?: boolean } | undefined) => {
      const result = outputOf(event);
      return result?.kind === 'ok'
        ? {
            view: result.data,
            path: result.data.step.path,
            serverErrors: [],
            editErrors: [],
            failure: null,
            failureStatus: null,
            viewVersion: context.viewVersion + 1,
            formVersion: context.formVersion + 1,
            petAdded: params?.petAdded === true && context.view?.step.id === result.data.step.id,
            // owner-payment.md §8: the address changed on a page (your details) after prices
            // were shown: the information toast, as the review page's modal shows it.
            ...(repricedByAddress(context.view, result.data)
              ? { notice: { kind: 'info' as const, title: 'toast.success.title', body: 'review.address_changed' } }
              : {}),
          }
        : {};
    }),
    /** The page as it now stands after a modal saved: the page's form keeps its typing. */
    refreshView: assign(({ event, context }) => {
      const result = outputOf(event);
      return result?.kind === 'ok' ? { view: result.data, editErrors: [], viewVersion: context.viewVersion + 1 } : {};
    }),
    storeFieldErrors: assign(({ event, context }) => {
      const result = outputOf(event);
      return result?.kind === 'invalid' ? { serverErrors: result.errors, submissions: context.submissions + 1 } : {};
    }),
    storeFailure: assign(({ event }) => {
      const output = outputOf(event);
      return output?.kind === 'failed'
        ? { failure: output.message, failureStatus: output.status }
        : { failure: 'network', failureStatus: null };
    }),
    clearFailure: assign({ failure: null, failureStatus: null, notice: null }),
    noticeRemoved: assign({
      notice: { kind: 'success' as const, title: 'toast.remove_pet.success.title', body: 'toast.remove_pet.success.body' },
    }),
    noticeNotRemoved: assign({
      notice: { kind: 'error' as const, title: 'toast.remove_pet.failure.title', body: 'toast.remove_pet.failure.body' },
    }),
    clearServerErrors: assign({ serverErrors: [] }),
    noticeClosed: assign({
      notice: { kind: 'error' as const, title: 'toast.step_closed.title', body: 'toast.step_closed.body' },
    }),
    startEdit: assign(({ event }) => ({
      editErrors: [],
      editNotice: event.type === 'edit.submit' && event.notice ? { body: event.notice, kind: event.noticeKind ?? 'success' } : null,
    })),
    storeEditErrors: assign(({ event, context }) => {
      const result = outputOf(event);
      return result?.kind === 'invalid' ? { editErrors: result.errors, editSubmissions: context.editSubmissions + 1 } : {};
    }),
    noticeEdited: assign(({ context }) =>
      context.editNotice
        ? { notice: { kind: context.editNotice.kind, title: 'toast.success.title', body: context.editNotice.body }, editNotice: null }
        : { editNotice: null },
    ),
    /** To the customer's bank's challenge; they come back to this page. */
    goToBank: ({ event }) => {
      const output = outputOf(event);
      if (output?.kind === 'authenticate') window.location.assign(output.url);
    },
    forgetReturn: assign({ returned: null }),
    /** Shows the step's URL: a new history entry when the step moved, the same one otherwise. */
    followStep: ({ context }, params: { replace: boolean }) => {
      const path = context.view?.step.path;
      if (path && path !== window.location.pathname) {
        if (params.replace) window.history.replaceState(null, '', path);
        else window.history.pushState(null, '', path);
      }
    },
  },
}).createMachine({
  id: 'journey',
  initial: 'loading',
  context: ({ input }) => ({
    path: input.path,
    view: null,
    serverErrors: [],
    failure: null,
    failureStatus: null,
    submissions: 0,
    viewVersion: 0,
    formVersion: 0,
    notice: null,
    editErrors: [],
    editSubmissions: 0,
    editNotice: null,
    petAdded: false,
    returned: input.returned ?? null,
  }),
  on: {
    'page.open': { target: '.loading', actions: 'setPath' },
    'toast.dismiss': { actions: 'clearFailure' },
    'notice.show': {
      actions: assign({
        notice: ({ event }) => (event.type === 'notice.show' ? { kind: event.kind, title: event.title, body: event.body } : null),
      }),
    },
  },
  states: {
    loading: {
      invoke: {
        src: 'loadView',
        input: ({ context }) => ({ path: context.path }),
        onDone: [
          { guard: 'returnedFromBank', target: 'buying', actions: ['storeView', { type: 'followStep', params: { replace: true } }] },
          { guard: 'answeredWithView', target: 'showing', actions: ['storeView', { type: 'followStep', params: { replace: true } }] },
          { target: 'failed', actions: 'storeFailure' },
        ],
        onError: { target: 'failed', actions: 'storeFailure' },
      },
    },
    showing: {
      on: {
        'step.submit': { guard: 'canSubmit', target: 'submitting', actions: ['clearServerErrors', 'clearFailure'] },
        'pet.remove': { target: 'removing', actions: 'clearFailure' },
        'pet.add': { target: 'adding', actions: 'clearFailure' },
        'pets.save_and_add': { guard: 'canSubmit', target: 'savingPets', actions: ['clearServerErrors', 'clearFailure'] },
        'quote.buy': { target: 'buying', actions: 'clearFailure' },
        'edit.submit': { target: 'editing', actions: ['clearFailure', 'startEdit'] },
        'page.refresh': {
          target: 'refreshing',
          actions: assign({ notice: ({ event }) => (event.type === 'page.refresh' ? (event.notice ?? null) : null) }),
        },
      },
    },
    /**
     * A modal's answers (journey.md §4: assumptions, pre-existing conditions, start date). Saved:
     * the page as it now stands (the answer itself when it is this page, else loaded again), and
     * the modal's toast shows. Field errors stay in the modal. Any other answer leaves the page
     * data untouched and shows the generic toast.
     */
    editing: {
      invoke: {
        src: 'submitAnswers',
        input: ({ context, event }) => ({
          url: event.type === 'edit.submit' ? event.call : '',
          csrf: context.view?.csrf ?? '',
          answers: event.type === 'edit.submit' ? (event.form ? { ...event.answers, form: event.form } : event.answers) : {},
        }),
        onDone: [
          { guard: 'editSavedHere', target: 'showing', actions: ['refreshView', 'noticeEdited'] },
          { guard: 'editSaved', target: 'refreshing', actions: 'noticeEdited' },
          { guard: 'answeredWithFieldErrors', target: 'showing', actions: 'storeEditErrors' },
          // The page the quote can show is loaded again, as it now stands.
          { guard: 'stepClosed', target: 'loading', actions: 'noticeClosed' },
          { target: 'showing', actions: 'storeFailure' },
        ],
        onError: { target: 'showing', actions: 'storeFailure' },
      },
    },
    /**
     * journey.md §4 Add another pet: "on /review a fresh pet slot is fetched, then the user is
     * redirected": the answer is the pet details page with the blank pet, followed like a step.
     * A refusal (ten pets already, or a blank one waiting) is said in a toast.
     */
    adding: {
      invoke: {
        src: 'submitAnswers',
        input: ({ context }) => ({ url: '/api/addpetid', csrf: context.view?.csrf ?? '', answers: {} }),
        onDone: [
          {
            guard: 'answeredWithView',
            target: 'showing',
            actions: [{ type: 'storeView', params: { petAdded: true } }, { type: 'followStep', params: { replace: false } }],
          },
          {
            guard: 'answeredWithFieldErrors',
            target: 'showing',
            actions: assign(({ event }) => {
              const result = outputOf(event);
              const message = result?.kind === 'invalid' ? result.errors[0]?.message : undefined;
              return { notice: { kind: 'error' as const, title: 'toast.something_wrong.title', body: message ?? 'toast.generic.body' } };
            }),
          },
          { guard: 'stepClosed', target: 'loading', actions: 'noticeClosed' },
          { target: 'showing', actions: 'storeFailure' },
        ],
        onError: { target: 'showing', actions: 'storeFailure' },
      },
    },
    /**
     * The pets on the page saved through the step's own call (the norequote=1 variant while no pet
     * has a product), then the fresh slot. The server's answer in between is not shown: the
     * customer stays on the pet details page, where the slot brings them back. Field errors stay
     * on the page, as a submission's do.
     */
    savingPets: {
      invoke: {
        src: 'submitAnswers',
        input: ({ context, event }) => ({
          url: context.view ? submitUrl(context.view) : '',
          csrf: context.view?.csrf ?? '',
          answers: event.type === 'pets.save_and_add' ? event.answers : {},
        }),
        onDone: [
          { guard: 'answeredWithView', target: 'adding' },
          { guard: 'answeredWithFieldErrors', target: 'showing', actions: 'storeFieldErrors' },
          { guard: 'stepClosed', target: 'loading', actions: 'noticeClosed' },
          { target: 'showing', actions: 'storeFailure' },
        ],
        onError: { target: 'showing', actions: 'storeFailure' },
      },
    },
    /** journey.md §4 Remove pet: success shows its toast; failure, a warning or an empty answer the failure toast. */
    removing: {
      invoke: {
        src: 'removePet',
        input: ({ context, event }) => ({ id: event.type === 'pet.remove' ? event.id : 0, csrf: context.view?.csrf ?? '' }),
        onDone: [
          // The customer stays on the page they were on: it is loaded again, as it now stands.
          { guard: 'answeredWithView', target: 'loading', actions: 'noticeRemoved' },
          { target: 'showing', actions: 'noticeNotRemoved' },
        ],
        onError: { target: 'showing', actions: 'noticeNotRemoved' },
      },
    },
    submitting: {
      invoke: {
        src: 'submitAnswers',
        input: ({ context, event }) => ({
          url: context.view ? submitUrl(context.view) : '',
          csrf: context.view?.csrf ?? '',
          answers: event.type === 'step.submit' ? event.answers : {},
        }),
        onDone: [
          { guard: 'answeredWithView', target: 'showing', actions: ['storeView', { type: 'followStep', params: { replace: false } }] },
          { guard: 'answeredWithFieldErrors', target: 'showing', actions: 'storeFieldErrors' },
          { guard: 'stepClosed', target: 'loading', actions: 'noticeClosed' },
          { target: 'showing', actions: 'storeFailure' },
        ],
        onError: { target: 'showing', actions: 'storeFailure' },
      },
    },
    /**
     * Buying: one request at a time (the button is disabled while it runs, and the
     * server makes one purchase whatever arrives); the answer is the confirmation page.
     */
    buying: {
      exit: 'forgetReturn',
      invoke: {
        src: 'purchase',
        input: ({ context }) => ({ csrf: context.view?.csrf ?? '', qidu: context.view?.qidu ?? '', returned: context.returned }),
        onDone: [
          // Off to the customer's bank; the page they come back to asks again.
          { guard: 'toAuthenticate', target: 'authenticating', actions: 'goToBank' },
          { guard: 'answeredWithView', target: 'showing', actions: ['storeView', { type: 'followStep', params: { replace: false } }] },
          // A declined card: the customer's to put right, shown on the page.
          { guard: 'answeredWithFieldErrors', target: 'showing', actions: 'storeFieldErrors' },
          { guard: 'stepClosed', target: 'loading', actions: 'noticeClosed' },
          { target: 'showing', actions: 'storeFailure' },
        ],
        onError: { target: 'showing', actions: 'storeFailure' },
      },
    },
    /** Leaving for the customer's bank's 3-D Secure challenge: the button stays busy. */
    authenticating: {},
    /** After a modal saved: the page's data again, for the page the customer is on. */
    refreshing: {
      invoke: {
        src: 'loadView',
        input: ({ context }) => ({ path: context.path }),
        onDone: [
          { guard: 'answeredWithView', target: 'showing', actions: 'refreshView' },
          { target: 'showing', actions: 'storeFailure' },
        ],
        onError: { target: 'showing', actions: 'storeFailure' },
      },
    },
    failed: {
      on: { 'page.retry': 'loading' },
    },
  },
});
