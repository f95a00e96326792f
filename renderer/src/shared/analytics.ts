/**
 * The analytics data layer (owner-payment.md §4 Analytics): page views, a submission event per
 * page (pet_details, user_details, review, payment, confirmation), transactionDetails on the
 * confirmation and a purchase event that fires once only; start dates as DD/MM/YYYY; every
 * event carries the brand's tracking id and the experiment views shown. Events go into
 * `window.dataLayer`, where a brand's tag manager reads them once the customer accepts analytics
 * cookies (./consent.ts; journeys/brands: tracking.tag_manager). Nothing here sends anything
 * itself; once the customer rejects analytics, nothing more is put in the data layer.
 */
import { currentChoice } from './consent';
import type { DataLayerEvent, ViewData } from './types';

export type { DataLayerEvent } from './types';

/** The page names the spec's submission events use, by the step the customer leaves. */
export const SUBMISSION_PAGES: Record<string, string> = {
  pet_details: 'pet_details',
  // The rehoming flow's pet page (its free cover is no purchase: no transactionDetails, no
  // purchase event on activation).
  your_pet: 'pet_details',
  your_details: 'user_details',
  review: 'review',
  payment: 'payment',
  confirmation: 'confirmation',
};

/** YYYY-MM-DD → DD/MM/YYYY (owner-payment.md §4: "Start date format in analytics is DD/MM/YYYY"). */
export function analyticsDate(ymd: string | null | undefined): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(ymd ?? '');
  return m ? `${m[3]}/${m[2]}/${m[1]}` : null;
}

/** What every event carries: who sells, through which channel, and the experiment views. */
function context(view: ViewData) {
  return {
    brand: view.brand,
    tracking_id: view.shell?.tracking_id ?? null,
    channel: view.channel,
    journey: view.journey,
    quote_reference: view.qidu,
    experiment_views: Object.entries(view.experiments).map(([id, variation]) => `${id}:${variation}`),
  };
}

export function pageView(view: ViewData): DataLayerEvent {
  return { event: 'page_view', page: view.step.path, step: view.step.id, title: view.step.title, ...context(view) };
}

/** The customer moved on from `left` (a step id); null when that page has no submission event. */
export function submission(left: string, view: ViewData): DataLayerEvent | null {
  const page = SUBMISSION_PAGES[left];
  if (!page) return null;
  return {
    event: 'submission',
    page,
    pets: view.pets.length,
    start_date: analyticsDate(view.start_date?.chosen),
    ...context(view),
  };
}

/** The confirmation's transactionDetails: the policies bought and what the customer pays. */
export function transactionDetails(view: ViewData): DataLayerEvent | null {
  const bought = view.purchase;
  if (!bought) return null;
  const yearly = bought.payment_frequency === 'AP';
  const value = bought.policies
    .reduce((sum, p) => sum + Math.round(Number(yearly ? p.annual_premium : p.monthly_premium) * 100), 0) / 100;
  return {
    event: 'transactionDetails',
    transaction_id: bought.id,
    payment_frequency: bought.payment_frequency,
    payment_method: bought.payment_method,
    currency: view.shell?.currency ?? 'GBP',
    value: value.toFixed(2),
    start_date: analyticsDate(bought.cover_start),
    products: bought.policies.map((p) => ({
      policy_number: p.policy_number,
      product_code: p.product_code,
      price: yearly ? p.annual_premium : p.monthly_premium,
    })),
    ...context(view),
  };
}

/**
 * The purchase event, once only for a purchase: a reload of the confirmation page, or a second
 * visit in this browser, fires nothing more. `seen` is where that is remembered, which is
 * storage for analytics: the page asks for the event only once analytics cookies are accepted.
 */
export function purchaseOnce(view: ViewData, seen: Pick<Storage, 'getItem' | 'setItem'>): DataLayerEvent | null {
  const details = transactionDetails(view);
  if (!details || !view.purchase) return null;
  const key = `pawpath:purchase-event:${view.purchase.id}`;
  if (seen.getItem(key)) return null;
  seen.setItem(key, '1');
  return { ...details, event: 'purchase' };
}

/**
 * Into the data layer: held in the page until the customer chooses (a tag manager loaded on
 * acceptance reads what is there), never once they have refused.
 */
export function push(event: DataLayerEvent | null) {
  if (!event || currentChoice() === 'denied') return;
  (window.dataLayer ??= []).push(event);
}
