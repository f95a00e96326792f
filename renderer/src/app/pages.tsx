/**
 * The journey's pages past the first, each a chunk of its own (code split by page).
 * The first page (a form) and the frame are in the entry chunk; every other page's code is
 * loaded when a view that shows it arrives, before that view is drawn (see `prepareView`).
 */
import { onDemand, whenViewArrives } from '@/shared/on-demand';
import type { ViewData } from '@/shared/types';

// No fallback: a view's page code is loaded before the view is drawn (a failed load fails the
// view, as a missing validator does), so the boundary never shows in practice.
export const Assumptions = onDemand(() => import('@/features/assumptions/AssumptionsStep').then((m) => m.AssumptionsStep));
export const ChoosePolicy = onDemand(() => import('@/features/cover/ChoosePolicyStep').then((m) => m.ChoosePolicyStep));
export const Review = onDemand(() => import('@/features/review/ReviewStep').then((m) => m.ReviewStep));
export const Payment = onDemand(() => import('@/features/payment/PaymentStep').then((m) => m.PaymentStep));
export const PaymentConfirmation = onDemand(
  () => import('@/features/payment/PaymentConfirmationStep').then((m) => m.PaymentConfirmationStep),
);
export const CardConfirmation = onDemand(() => import('@/features/payment/CardConfirmationStep').then((m) => m.CardConfirmationStep));
export const Confirmation = onDemand(() => import('@/features/confirmation/ConfirmationStep').then((m) => m.ConfirmationStep));
export const RescueConfirmation = onDemand(
  () => import('@/features/rehoming/RescueConfirmationStep').then((m) => m.RescueConfirmationStep),
);
export const Static = onDemand(() => import('@/features/pages/StaticPage').then((m) => m.StaticPage));
export const RetrieveQuote = onDemand(() => import('@/features/retrieve/RetrieveQuoteStep').then((m) => m.RetrieveQuoteStep));
export const Codes = onDemand(() => import('@/features/codes/CodesPanel').then((m) => m.CodesPanel));

const byView: Partial<Record<ViewData['step']['view'], { prepare: () => Promise<void> }>> = {
  assumptions: Assumptions,
  choose_policy: ChoosePolicy,
  review: Review,
  payment: Payment,
  payment_confirmation: PaymentConfirmation,
  card_confirmation: CardConfirmation,
  confirmation: Confirmation,
  rescue_confirmation: RescueConfirmation,
  static_page: Static,
  retrieve_quote: RetrieveQuote,
};

whenViewArrives((data) => {
  const view = data as Partial<ViewData>;
  const page = view.step ? byView[view.step.view] : undefined;
  const codes = view.step?.view === 'form' && view.edits && (view.edits.promo_code || view.edits.referral_code || view.edits.existing_policy);
  return Promise.all([page?.prepare(), codes ? Codes.prepare() : undefined]);
});
