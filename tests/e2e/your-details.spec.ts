import { expect, type Page, test } from '@playwright/test';

import { expectAccessible, screenshot, watchConsole } from './support';
import { fillYourDetails } from './support-owner';

// owner-payment.md §2 /your-details and the address search, §5 Owner and Address search, §8
// Address and policy, in a browser.

async function aCatSaved(page: Page) {
  await page.goto('/quote');
  await page.getByLabel("What is your pet's name?").fill('Tigger');
  await page.getByRole('radio', { name: 'Cat', exact: true }).check();
  await page.getByRole('radio', { name: 'Moggie', exact: true }).check();
  await page.getByRole('textbox', { name: 'Day' }).fill('01');
  await page.getByRole('textbox', { name: 'Month' }).fill('02');
  await page.getByRole('textbox', { name: 'Year' }).fill('2023');
  await page.getByRole('radio', { name: 'Male', exact: true }).check();
  await page.getByRole('group', { name: 'Has your pet been neutered?' }).getByRole('radio', { name: 'Yes' }).check();
  await page.getByRole('group', { name: 'Has your pet had any injury or illness?' }).getByRole('radio', { name: 'No' }).check();
  await page.getByRole('checkbox', { name: "I didn't pay anything" }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/your-details$/);
}

test('a new customer fills in their details by keyboard, finds the address and arrives at choose policy', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await aCatSaved(page);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'your-details-empty');
  // Next with nothing: the spec's messages, the summary, focus on the first field.
  await page.getByRole('button', { name: 'Next' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'Please Check the following fields:' });
  await expect(summary).toContainText('Your address – Please search and add your address');
  await expect(page.getByRole('radio', { name: 'Mr', exact: true })).toBeFocused();

  await fillYourDetails(page);
  await expect(page.getByRole('status').filter({ hasText: 'We found your address.' })).toBeAttached();
  await page.getByRole('checkbox', { name: 'Email' }).focus();
  await page.keyboard.press('Space');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'your-details-filled');
  await page.getByRole('button', { name: 'Next' }).focus();
  await page.keyboard.press('Enter');
  // journey.md §2: the owner's postcode opens the choose-policy step.
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  await expect(page.getByRole('link', { name: /Your details/ })).toBeVisible();
  expect(problems()).toEqual([]);
});

test('the legacy postcode search, its messages, and manual entry', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await aCatSaved(page);
  const address = page.getByRole('group', { name: 'Your address' });
  // The modern search needs both boxes (owner-payment.md §5, §8).
  await address.getByLabel('Postcode').fill('BS11 8NN');
  await address.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid address search details: Please enter your house name/number and postcode to search for your address.' })).toBeVisible();
  await address.getByLabel('House name or number').fill('999');
  await address.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Error: We could not find your address.' })).toBeVisible();

  await address.getByRole('button', { name: 'Search by postcode only' }).click();
  const postcode = address.getByLabel('Postcode');
  await postcode.fill('');
  await postcode.press('Enter');
  await expect(address).toContainText('Postcode required for address search');
  await postcode.fill('BS11 8N!');
  await postcode.press('Enter');
  await expect(address).toContainText('Invalid postcode');
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid postcode: Please enter a valid postcode to search for your address.' })).toBeVisible();
  await postcode.fill('BS99 9ZZ');
  await postcode.press('Enter');
  await expect(address).toContainText('No results found for that postcode.');
  await postcode.fill('bs11 8nn');
  await address.getByRole('button', { name: 'Find address' }).click();
  const select = address.getByLabel('Select your address');
  await expect(select).toBeFocused();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'legacy-search');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(address.locator('address')).toContainText('BS11 8NN');

  // Edit the found address by hand; a postcode that is not a UK one is refused.
  await address.getByRole('button', { name: 'Edit address' }).click();
  await address.getByLabel('Address line 2 (optional)').fill('Shirehampton');
  await address.getByLabel('Postcode').fill('BS11 8N');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please Check the following fields:' })).toContainText('Please enter a valid postcode');
  await screenshot(page, testInfo, 'manual-entry');
  expect(problems()).toEqual([]);
});
