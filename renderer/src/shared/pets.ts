/** What the server decides about a pet, as pages read it from the view data's `pet_flags`. */
import type { ViewData } from './types';

/** Whether the pet is referred for its pre-existing conditions (RA008), as the server decides. */
export function preExistingReferred(view: ViewData, index: number): boolean {
  return view.pet_flags?.[index]?.pre_existing_referred === true;
}
