import { expect, type Page, test } from '@playwright/test';

import { expectAccessible, screenshot, showVariation, watchConsole } from './support';
import { chooseLifetimeForEveryPet } from './support-cover';
import { fillYourDetails } from './support-owner';
import { describeRexAndGoOn } from './support-pets';

// A review a customer can check (journey.md §2 Review, Modals "edit pet details";
// owner-payment.md §2 Review quote): each pet's answers and the owner's as a check-answers list,
// each with its own Change; one rating panel; the reading folded. At 1280 px and at 375 px.

async function rexToReview(page: Page) {
  await page.goto('/quote?brand=pos');
  await showVariation(page, 'tiles');
  await describeRexAndGoOn(page);
  await fillYourDetails(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await chooseLifetimeForEveryPet(page, ['Rex']);
  await expect(page.getByRole('heading', { level: 1, name: 'Review your quote' })).toBeVisible();
}

/** The answer in a check-answers row, by its label. */
function answer(page: Page, region: string, label: string) {
  return page
    .getByRole('region', { name: region, exact: true })
    .locator('.check-answers__row')
    .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
    .locator('.check-answers__value');
}

test("the review lists the pet's answers and the owner's, each with its own Change", async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await rexToReview(page);
  for (const [label, value] of [
    ['Pet', 'Dog, Pedigree, Beagle'],
    ['Date of birth', '01/02/2023'],
    ['Sex', 'Male'],
    ['Neutered', 'Yes'],
    ['Any injury or illness', 'No'],
    ['What you paid', "I didn't pay anything"],
    ['Cover', 'Lifetime £4,000'],
  ]) {
    await expect(answer(page, 'Rex', label)).toHaveText(value);
  }
  await expect(answer(page, 'Your details', 'Email address')).toHaveText('ada@example.com');
  // One rating panel for the page, no badge per pet; the reading folded.
  await expect(page.getByText('5★ rated')).toHaveCount(1);
  // The header's pet icons stay (owner-payment.md §2 Review quote header), one per pet.
  await expect(page.locator('.review__pets li')).toHaveCount(1);
  await expect(page.getByRole('region', { name: /Rated by Defaqto/ })).toHaveCount(1);
  await expect(page.locator('details.review__fold')).toHaveCount(2);
  await expect(page.locator('details.review__fold[open]')).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'review-check-answers');

  // Change the breed: the modal opens at the breed, with no way to add a pet from it, and the
  // list shows the new breed once it is saved.
  await page.getByRole('button', { name: 'Change pet for Rex' }).click();
  const dialog = page.getByRole('dialog', { name: "Edit Rex's details" });
  const breed = dialog.getByRole('combobox', { name: 'What breed is Rex?' });
  await expect(dialog.getByRole('group', { name: /^Is Rex a dog/ }).getByRole('radio', { name: 'Dog', exact: true })).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Add another pet' })).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'review-edit-pet');
  await breed.fill('');
  await breed.pressSequentially('boxe');
  await page.getByRole('option', { name: 'Boxer', exact: true }).click();
  await dialog.getByRole('button', { name: 'Save and close' }).click();
  await expect(dialog).toBeHidden();
  await expect(answer(page, 'Rex', 'Pet')).toHaveText('Dog, Pedigree, Boxer');

  // The cover start date changes beside where it is said, by keyboard.
  await page.getByRole('button', { name: 'Change start date' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Cover start date' })).toBeVisible();
  await page.keyboard.press('Escape');
  expect(problems()).toEqual([]);
});
