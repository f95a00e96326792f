import { expect, test } from '@playwright/test';

import { expectAccessible, mailTo, screenshot, watchConsole } from './support';
import { press } from './support-keys';
import { coverByKeyboard, detailsByKeyboard, lifetime4000ByKeyboard, petByKeyboard } from './support-journey';

// The review edits a pet in its modal and comes
// back with the new price (journey.md §2 Modals "edit pet details"); Add another pet fetches a
// fresh slot and opens the pet page (§4 Add another pet, §7 /api/addpetid); the quote can be
// emailed (owner-payment.md §7 /api/sendquoteemail); the first page links to retrieve-quote. By
// keyboard, with an axe check of each new part.

test('from review: edit a pet in place, email the quote, add another pet', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote');
  const retrieve = page.getByRole('link', { name: 'Retrieve a saved quote' });
  await expect(retrieve).toHaveAttribute('href', '/quote/retrieve-quote');
  await expect(page.getByText('Already have a quote?')).toBeVisible();
  await petByKeyboard(page, 0, { name: 'Rex', species: 'Dog', type: 'Pedigree', breed: ['beag', 'Beagle'] });
  await press(page, page.getByRole('button', { name: 'Next' }));
  const email = `review-${Date.now()}@example.com`;
  await detailsByKeyboard(page, email);
  await press(page, page.getByRole('button', { name: 'Next' }));
  await coverByKeyboard(page, ['Rex']);
  await expect(page).toHaveURL(/\/quote\/review$/);
  const card = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Rex', exact: true }) }).first();
  const priceBefore = await card.getByText(/£[0-9]+\.[0-9]{2}/).first().textContent();

  // Edit Rex in the modal: not neutered after all. The review comes back with the new price.
  // Each answer has its own Change, which opens the modal at that answer.
  await press(page, page.getByRole('button', { name: 'Change neutered for Rex' }));
  const dialog = page.getByRole('dialog', { name: "Edit Rex's details" });
  await expect(dialog).toBeVisible();
  // The pet as stored, breed included (the breed search has its lists in the modal too).
  await expect(dialog.getByRole('combobox', { name: 'What breed is Rex?' })).toHaveValue('Beagle');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'edit-pet-modal');
  const neutered = dialog.getByRole('group', { name: /^Has Rex been neutered\?$/ });
  await neutered.getByRole('radio', { name: 'No' }).focus();
  await page.keyboard.press('Space');
  await expect(neutered.getByRole('radio', { name: 'No' })).toBeChecked();
  await press(page, dialog.getByRole('button', { name: 'Save and close' }));
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Your quote has been updated.' })).toBeVisible();
  await expect(page).toHaveURL(/\/quote\/review$/);
  await expect(card.getByText(/£[0-9]+\.[0-9]{2}/).first()).not.toHaveText(priceBefore ?? '');
  await screenshot(page, testInfo, 'review-after-edit');

  // owner-payment.md §8 Updates, word for word: "Your details have been updated successfully."
  await press(page, page.getByRole('button', { name: 'Edit your details' }));
  const details = page.getByRole('dialog', { name: 'Edit your details' });
  await details.getByLabel('Phone number').fill('01632960999');
  await press(page, details.getByRole('button', { name: 'Save and close' }));
  await expect(page.getByRole('status').filter({ hasText: 'Success: Your details have been updated successfully.' })).toBeVisible();

  // Email me this quote: a toast says where it went, and it arrives with the way back.
  await press(page, page.getByRole('button', { name: 'Email me this quote' }));
  await expect(page.getByRole('status').filter({ hasText: `We've emailed your quote to ${email}.` })).toBeVisible();
  const [message] = await mailTo(email);
  expect(message.subject).toMatch(/^Your Pawsure Pet Cover pet insurance quote [A-Z0-9-]+$/);
  expect(message.text).toContain('/quote/retrieve-quote?brand=pos&reference=');
  await expectAccessible(page);

  // Add another pet: the pet page with a fresh slot after Rex.
  await press(page, page.getByRole('button', { name: 'Add another pet' }));
  await expect(page).toHaveURL(/\/quote$/);
  const sections = page.locator('section.pet');
  await expect(sections).toHaveCount(2);
  await expect(sections.nth(0).getByLabel("What is your pet's name?")).toHaveValue('Rex');
  await expect(sections.nth(1).getByLabel("What is your pet's name?")).toHaveValue('');
  // The retrieve link is for a visitor starting out, not for a quote under way.
  await expect(page.getByRole('link', { name: 'Retrieve a saved quote' })).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'added-pet');

  // Tigger described; your details as given; the cover page opens on Tigger, Rex keeps his.
  await petByKeyboard(page, 1, { name: 'Tigger', species: 'Cat', type: 'Moggie' });
  await press(page, page.getByRole('button', { name: 'Next' }));
  await expect(page).toHaveURL(/\/quote\/your-details$/);
  await press(page, page.getByRole('button', { name: 'Next' }));
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  await lifetime4000ByKeyboard(page, 'Tigger');
  await press(page, page.getByRole('button', { name: 'Continue' }));
  await expect(page).toHaveURL(/\/quote\/review$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Tigger', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Rex', exact: true })).toBeVisible();
  expect(problems()).toEqual([]);
});

test('a quote email\'s link fills in the reference on retrieve-quote', async ({ page }) => {
  await page.goto('/quote/retrieve-quote?brand=pos&reference=ABCD-EFGH-JKMN');
  await expect(page.getByLabel('Quote reference')).toHaveValue('ABCD-EFGH-JKMN');
  await expect(page.getByLabel('Email address')).toHaveValue('');
});

test('owner-payment.md §8: a new address on your details, once priced, says the price may have changed', async ({ page }) => {
  await page.goto('/quote');
  await petByKeyboard(page, 0, { name: 'Rex', species: 'Dog', type: 'Pedigree', breed: ['beag', 'Beagle'] });
  await press(page, page.getByRole('button', { name: 'Next' }));
  await detailsByKeyboard(page, `address-${Date.now()}@example.com`);
  await press(page, page.getByRole('button', { name: 'Next' }));
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  // Back to your details by the step bar; a new address found; on to the quote again.
  await page.getByRole('link', { name: /Your details/ }).click();
  await expect(page).toHaveURL(/\/quote\/your-details$/);
  await page.getByRole('button', { name: 'Search again' }).click();
  await page.getByLabel('House name or number').fill('3');
  await page.getByLabel('Postcode').fill('LE5 5PL');
  await page.getByLabel('Postcode').press('Enter');
  await expect(page.locator('address')).toContainText('LE5 5PL');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  await expect(page.getByRole('status').filter({ hasText: 'Your address has been changed. Please note as a result of changing your address your price may have changed.' })).toBeVisible();
});
