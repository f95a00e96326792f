import { describe, expect, it } from 'vitest';

import { text } from '@/shared/copy';
import en from '../../../../questions/copy/en-GB.json';
import ptp from '../../../../journeys/brands/ptp.json';
import { toastLead } from './Toast';

// journey.md §8: toasts read "title: content"; the remove-pet variants are "Error! An error
// occurred while removing your pet. Please refresh the page." and "Success! Your pet has been
// removed from the quote!" (ptp read "Error: Error! …").
describe('toast wording', () => {
  const base = (en as { messages: Record<string, string> }).messages;
  const brand = { ...base, ...(ptp as { copy: { 'en-GB': Record<string, string> } }).copy['en-GB'] };
  const toast = (copy: Record<string, string>, key: string) =>
    toastLead(text(copy, `${key}.title`)) + text(copy, `${key}.body`);
  it('reads title: content by default', () => {
    expect(toast(base, 'toast.remove_pet.failure')).toBe('Error: Sorry we could not delete this pet.');
    expect(toast(base, 'toast.remove_pet.success')).toBe('Success: Your pet has been removed from the quote.');
  });
  it("reads ptp's variants word for word, once", () => {
    expect(toast(brand, 'toast.remove_pet.failure')).toBe(
      'Error! An error occurred while removing your pet. Please refresh the page.',
    );
    expect(toast(brand, 'toast.remove_pet.success')).toBe('Success! Your pet has been removed from the quote!');
  });
});
