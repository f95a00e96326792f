/** The review page's modals and what it says of the owner and the pets (journey.md §2 Review). */
import { text } from '@/shared/copy';
import type { QuestionsView, ViewData } from '@/shared/types';

export { preExistingReferred } from '@/shared/pets';

export type OwnerModal = 'address' | 'full' | 'phone';
export type ReviewModal =
  | { kind: 'owner'; variant: OwnerModal; field?: string }
  | { kind: 'start_date' }
  | { kind: 'pre_existing'; pet: number }
  | { kind: 'pet'; pet: number; field?: string }
  | { kind: 'cover'; pet: number }
  | { kind: 'benefits'; pet: number }
  | { kind: 'reminder' }
  | { kind: 'excess' }
  | null;

export const OWNER_TITLES: Record<OwnerModal, string> = {
  full: 'review.details.edit',
  address: 'review.details.edit_address',
  phone: 'review.details.add_phone',
};

/** The owner fields each of the review's owner modals shows (address-only and full). */
export const OWNER_FIELDS: Record<OwnerModal, string[]> = {
  address: ['email_address', 'customer_address_line_1'],
  full: ['customer_title', 'customer_first_name', 'customer_last_name', 'customer_date_of_birth', 'email_address', 'customer_contact_number', 'customer_address_line_1', 'marketing_preferences'],
  phone: ['customer_contact_number'],
};

/**
 * journey.md §4: whether the review asks the owner to confirm this pet's date of birth (on a
 * comparison site's quote, a pet under 12 weeks old whose date of birth is not confirmed). The
 * server decides (`pet_flags`); the page follows.
 */
export function needsDobConfirmation(view: ViewData, index: number): boolean {
  return view.pet_flags?.[index]?.dob_to_confirm === true;
}

export function marketingSummary(copy: Record<string, string>, owner: Record<string, unknown>): string {
  const prefs = (owner.marketing_preferences ?? {}) as Record<string, unknown>;
  const on = ['email', 'post', 'sms', 'phone'].filter((k) => prefs[`optin_${k}`] === true).map((k) => text(copy, `owner.marketing.${k}`));
  return on.length > 0 ? text(copy, 'review.marketing.on', { ways: on.join(', ') }) : text(copy, 'review.marketing.none');
}

export function ownerAddress(owner: Record<string, unknown>): string {
  return [owner.customer_address_line_1, owner.customer_address_line_2, owner.customer_town, owner.customer_county, owner.customer_postcode]
    .filter((x) => typeof x === 'string' && x.trim())
    .join(', ');
}

/** The review's edit-pet modal's question set (journey.md §2 Modals "edit pet details"): the pet details questions of the quote's journey. */
export function petEdit(view: ViewData): QuestionsView | undefined {
  return view.edits.pet_details;
}
