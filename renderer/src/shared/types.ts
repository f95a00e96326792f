/** The view data the server sends for a page (GET page URL with Accept: application/json). */
import type { Edits, ViewName } from '@/generated/views';

export interface StepBarItem {
  number: number;
  label: string;
  status: 'current' | 'completed' | 'incomplete';
  clickable: boolean;
  path: string;
}

export interface Block {
  id: string;
  message: string | null;
  field: string | null;
}

export interface QuestionsView {
  id: string;
  /** The form's schema and UI hints: put in by the API client from `form` (fetched once). */
  schema: Record<string, unknown> & { $id: string };
  ui: Record<string, unknown>;
  answers: Record<string, unknown>;
  submit: string | null;
  /** Where the form is, for the definitions version served. */
  form?: string;
  /** A modal's answers saving it also sets on the pet it edits (the journey's `sets_on_pet`). */
  sets_on_pet?: Record<string, unknown>;
}

/** What the page's frame shows of the quote's brand (journeys/brands; journey.md §2 Shell). */
export interface ShellView {
  id: string;
  name: string;
  site_url: string;
  logo_url: string;
  theme_url: string;
  /** The sales number for the quote's channel. */
  phone: string;
  /** The sales hours, as the brand's copy words them. */
  hours: string;
  languages: string[];
  currency: 'GBP' | 'EUR';
  /** Full paths of the brand's static pages; `library` only where the brand has one. */
  pages: { privacy: string; terms: string; support: string; library: string | null; promotion_terms?: string | null };
  rating_badge: 'defaqto_5_star' | 'defaqto_5_star_lifetime' | 'none';
  best_buy_banner: boolean;
  tracking_id: string;
  /** The brand's tag manager, loaded once the customer accepts analytics cookies; null: no cookie banner. */
  tag_manager: { name: string; script: string; ask_again_after_days: number } | null;
}

/** A static page's words (journeys/pages.json). */
export interface StaticPageView {
  id: 'privacy' | 'terms' | 'support' | 'library' | 'policy_link_expired' | 'already_purchased' | 'policy_terminated';
  title: string;
  description: string;
  index: boolean;
  sections: Array<{ heading: string; paragraphs: string[] }>;
  faqs: Array<{ question: string; answer: string }>;
}

export interface ViewData {
  qidu: string;
  csrf: string;
  brand: string;
  /** The brand's frame: absent only for a brand the definitions no longer know. */
  shell: ShellView | null;
  /** On the static pages only. */
  page?: StaticPageView;
  channel: string;
  journey: string;
  /** An extra flow's journey (journey.md §1: rehoming, annual_rehoming), else null. */
  flow?: string | null;
  language: string;
  pets: Array<Record<string, unknown>>;
  /** What the pages show of each pet that only the server decides, in the pets' order. */
  pet_flags?: Array<{ dob_to_confirm: boolean; pre_existing_referred: boolean }>;
  owner: Record<string, unknown>;
  step: {
    id: string;
    path: string;
    title: string;
    /** A view of journeys/views.json, or one of the renderer's own pages. */
    view: ViewName | 'retrieve_quote' | 'static_page';
    bar_number: number | null;
    bar_label: string | null;
    /** The step's unconditional exit, for a page whose Continue saves nothing (review). */
    next?: string | null;
    blocks: Block[];
  };
  questions: QuestionsView | null;
  /**
   * The modals the page offers, by the role each plays on the view (journeys/views.json), never
   * by question-set id; `submit` is the call that saves each, `id` the set sent back as `form`.
   */
  edits: Edits;
  /** Document pointers of the answers a lock keeps: shown read-only. */
  locked?: string[];
  step_bar: StepBarItem[];
  /** journey.md §4 Policy start date: dates as YYYY-MM-DD. */
  start_date: {
    earliest: string;
    latest: string;
    options: Array<'today' | 'tomorrow' | 'other'>;
    chosen: string;
    chosen_option: string;
    today: string;
    tomorrow: string;
  };
  /** journey.md §3 Quote view data: every product priced for every pet. */
  products: Product[];
  /** owner-payment.md §4 Prices: totals and discounts of the chosen products. */
  summary: QuoteSummary;
  /** owner-payment.md §3 Payment as stored: the account number only masked. */
  payment: Record<string, unknown>;
  /** The payment page's first collection for each frequency and day (owner-payment.md §4). */
  collections: Record<'MP' | 'AP', Record<string, { date: string; amount: string; payments: number; regular: string }>> | null;
  /** The payment page's ways to pay for the quote's brand (journeys/brands). */
  payment_options: PaymentOptions | null;
  /** The bank details panel, on that page only (owner-payment.md §2). */
  bank_details: {
    account_name: string;
    account_number: string;
    sort_code: string;
    cover_start: string;
    bank_name: string | null;
    bank_address: string | null;
    payment_frequency: 'MP' | 'AP' | null;
    payment_day: number | null;
    /** The mandate's first collection, as the payment page's notice worked it out. */
    first_collection: { date: string; amount: string; payments: number; regular: string } | null;
  } | null;
  /** journey.md §4 Timers: the inactivity warning and reset times. */
  timeouts: { warning_ms: number; reset_ms: number };
  /** The purchase, once bought (owner-payment.md §2 Confirmation page). */
  purchase: Purchase | null;
  /** A bought quote's Nectar bonus, totalled and capped by the server (owner-payment.md §9: 20,000 points). */
  nectar_bonus?: { points: number; capped: boolean; cap: number; card_last4: string } | null;
  /** The rehoming flow's free cover, on its confirmation page (journey.md §1 Extra flows). */
  rescue?: RescueCover | null;
  /** The variation of each experiment this quote is shown (journeys/experiments.json). */
  experiments: Record<string, string>;
  /** journey.md §3 Quote view data: the customer asked for no quote reminders. */
  no_quote_chase_email: boolean;
  /** Whether starting again keeps the quote to be retrieved (it has the owner's email): the server's rule. */
  kept_on_reset: boolean;
  /** owner-payment.md §3 Documents: each pet's policy wording and IPID for its product. */
  documents: PetDocuments[];
  /** The last day the quote's prices hold (YYYY-MM-DD). */
  valid_until: string | null;
  /** The copy catalogue: put in by the API client from `copy_url` (fetched once per address). */
  copy: Record<string, string>;
  /** Where the brand's copy in the quote's language is, for the definitions version served. */
  copy_url?: string;
}

/** The free rehoming cover (journeys/rehoming-centres.json; owner-payment.md §9). Dates YYYY-MM-DD. */
export interface RescueCover {
  code: string;
  days: number;
  start: string;
  end: string;
  vet_fee_limit: string;
  excess: string | null;
  third_party_liability: boolean;
  centre: { id: string; contactname: string; address1: string; address2?: string; address3?: string; address4?: string; postcode: string } | null;
  rehome_date: string | null;
  certificate_number: string | null;
  policy_number: string | null;
  /** Once active, where the brand has the annual flow: the signed link to a year's cover. */
  annual_link?: string;
}

export interface DocumentLink {
  kind: 'policy_wording' | 'ipid';
  title: string;
  name: string;
  url: string;
}

/** A pet's documents: for its chosen product, for each cover type, and the older pet's share. */
export interface PetDocuments {
  petid: number;
  items: DocumentLink[];
  by_group: Partial<Record<'LT' | 'MB' | 'TL', DocumentLink[]>>;
  older_pet_share_percent: string | null;
  older_pet_age: number;
}

/** A benefit row of a product (journey.md §3 PolicyTerms): `desc`, `tt` and `val_key` are copy keys. */
export interface PolicyTerm {
  desc: string;
  tt: string;
  val?: string;
  val_key?: string;
  biline: boolean;
  show: boolean;
}

/**
 * A priced product as pages use it (journey.md §3 Product, the fields a page reads); money as
 * decimal strings in pounds. The product calls and the comparison sites get every field.
 */
export interface Product {
  Code: string;
  Gid: 'LT' | 'MB' | 'TL';
  GidOrderShow: number;
  LimitVal: number;
  Excess: string;
  coins: string;
  RecurringMonthly: string;
  AnnualPremium: string;
  petid: number;
  species: string;
  Rated: boolean;
  PolicyTerms: PolicyTerm[];
  FlexyProductsOptions: {
    current_set_excess: string;
    current_variable_excess: string;
    options_set_excess: string;
    options_variable_excess: string;
  };
  excess_options: { list: Array<{ coins: string }> };
  ClaimExample: { Bill: string; Customer: string; Insurer: string; Warnings: string[] };
}

export interface QuoteSummary {
  monthly: string;
  annual: string;
  discounts_monthly: Array<[string, string]>;
  discounts_annual: Array<[string, string]>;
  multipet_pending: boolean;
  every_pet_chosen: boolean;
}

export interface FieldMessage {
  field: string;
  message: string;
}

/** How the brand takes payment; for card, the card form and where the browser sends it. */
export interface PaymentOptions {
  methods: Array<'DD' | 'CC'>;
  card: {
    questions: QuestionsView;
    /** `form`: pawpath's card form posted to the provider; `stripe`: the card's number, expiry and security code in Stripe's own fields. */
    provider: { kind: 'form'; tokenise_url: string; publishable_key: string } | { kind: 'stripe'; script_url: string; publishable_key: string };
  } | null;
}

export interface Purchase {
  id: string;
  created_at: string;
  payment_frequency: 'MP' | 'AP';
  payment_day: number;
  cover_start: string;
  policies: Array<{ policy_number: string; pet_original_id: number; pet_name: string; product_code: string; monthly_premium: string; annual_premium: string; start_date: string }>;
  /** DD or CC (owner-payment.md §3 payment_method). */
  payment_method: 'DD' | 'CC';
  /** Direct Debit payers. */
  mandate_reference: string | null;
  account_number_masked: string | null;
  /** Card payers: what a receipt shows of the card. */
  card: { issuer: string; last4: string; expiry: string; card_name: string; amount: string; currency: string } | null;
  /** [due date, amount, payments] */
  collections: Array<[string, string, number]>;
  portal_registered: boolean;
  /** The password may still be set here: soon after the purchase, none set yet. */
  portal_open: boolean;
}

/** One event in the page's data layer, as the brand's tag manager reads it. */
export interface DataLayerEvent {
  event: string;
  [field: string]: unknown;
}

declare global {
  interface Window {
    dataLayer?: DataLayerEvent[];
  }
}
