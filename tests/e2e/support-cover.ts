import { expect, type Page } from '@playwright/test';

/**
 * On /choose-policy, gives every pet Lifetime £4,000 with the default excess, pet by pet
 * (journey.md §4 Cover selection), and continues to the review.
 */
export async function chooseLifetimeForEveryPet(page: Page, names: string[]) {
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  for (const [i, name] of names.entries()) {
    await expect(page.getByRole('heading', { name: `Choose ${name}'s cover` })).toBeVisible();
    // The quote shows the cover type tiles or the two-question guide (an experiment).
    const guide = page.getByRole('group', { name: 'Do you want cover for short-term and long-term ongoing conditions?' });
    const lifetime = page.getByRole('button', { name: /– Lifetime$/ });
    if ((await guide.count()) > 0) {
      await guide.getByRole('radio', { name: 'Yes' }).check();
      await page.getByRole('group', { name: 'Do you want to cover ongoing conditions every year?' }).getByRole('radio', { name: 'Yes' }).check();
    } else if ((await lifetime.count()) > 0 && (await page.getByRole('button', { name: 'Selected – Lifetime' }).count()) === 0) {
      await page.getByRole('button', { name: 'Choose cover level – Lifetime' }).click();
    }
    await page.getByRole('tab', { name: /Cover level/ }).click();
    await page.getByRole('button', { name: /^Select(ed)? – £4,000$/ }).click();
    await expect(page.getByRole('button', { name: 'Selected – £4,000' })).toBeVisible();
    await page.getByRole('region', { name: "What's included?" }).scrollIntoViewIfNeeded();
    const last = i === names.length - 1;
    await page.getByRole('button', { name: last ? 'Continue' : `Next: ${names[i + 1]}'s cover` }).click();
  }
  await expect(page).toHaveURL(/\/quote\/review$/);
}
