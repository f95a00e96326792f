import { expect, test } from '@playwright/test';

import { expectAccessible, screenshot, watchConsole } from './support';

// journey.md §2 (pet details, error summary, step bar) and §5 (pet form rules), in a browser,
// by keyboard alone.
test('a new customer fills the pet form by keyboard, meets an error, fixes it and reaches your details', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote');
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Your progress' }).locator('[aria-current="step"]')).toContainText('Your pets');
  await expectAccessible(page);
  await screenshot(page, testInfo, '01-pet-details');

  // Keyboard only: the skip link passes the header's links (logo, phone) to the first question.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to main content' })).toBeFocused();
  await page.keyboard.press('Enter');
  // First the way back to a saved quote, then the first question.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Retrieve a saved quote' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel("What is your pet's name?")).toBeFocused();
  await page.keyboard.type('Biscuit');
  await page.keyboard.press('Tab'); // species: the first radio
  await page.keyboard.press('Space'); // Dog
  await expect(page.getByRole('radio', { name: 'Dog' })).toBeChecked();
  await page.keyboard.press('Tab'); // what type of dog: Pedigree
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab'); // the breed search
  // Once the pet has a name, its questions use it.
  const breed = page.getByRole('combobox', { name: 'What breed is Biscuit?', exact: true });
  await expect(breed).toBeFocused();
  await page.keyboard.type('labr');
  // Breeds as owners say them; the Kennel Club writes "Retriever (Labrador)".
  await expect(page.getByRole('option', { name: 'Labrador Retriever', exact: true })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(breed).toHaveValue('Labrador Retriever');
  await page.keyboard.press('Tab'); // date of birth: the boxes move on by themselves when full
  await page.keyboard.type('01042023');
  await expect(page.getByRole('textbox', { name: 'Day' })).toHaveValue('01');
  await expect(page.getByRole('textbox', { name: 'Month' })).toHaveValue('04');
  await expect(page.getByRole('textbox', { name: 'Year' })).toHaveValue('2023');
  await page.keyboard.press('Tab'); // sex
  await page.keyboard.press('ArrowRight'); // Female
  await expect(page.getByRole('radio', { name: 'Female' })).toBeChecked();
  await page.keyboard.press('Tab'); // neutered
  await page.keyboard.press('Space'); // Yes
  await page.keyboard.press('Tab'); // injury or illness
  await page.keyboard.press('ArrowRight'); // No
  await page.keyboard.press('Tab'); // cost
  await expect(page.getByLabel(/^How much did you pay for .+\?$/)).toBeFocused();
  await page.keyboard.type('-450');
  await page.keyboard.press('Tab'); // "I didn't pay anything"
  await page.keyboard.press('Tab'); // Add another pet
  await expect(page.getByRole('button', { name: 'Add another pet' })).toBeFocused();
  await page.keyboard.press('Tab'); // Next
  await expect(page.getByRole('button', { name: 'Next' })).toBeFocused();
  await page.keyboard.press('Enter');

  // The browser refuses it with the spec's message, lists it and focuses the field.
  const summary = page.getByRole('alert').filter({ hasText: 'Please Check the following fields:' });
  await expect(summary).toBeVisible();
  await expect(summary).toContainText('How much did you pay for Biscuit? – This field can only accept positive numbers');
  const cost = page.getByLabel(/^How much did you pay for .+\?$/);
  await expect(cost).toBeFocused();
  await expect(cost).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await screenshot(page, testInfo, '02-pet-details-error');

  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('450');
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/quote\/your-details$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your details' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Your details' })).toBeFocused();
  await expect(page.getByRole('group', { name: 'Title' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, '03-your-details');

  // A reload keeps the quote; the answers are still there when the customer goes back.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Your details' })).toBeVisible();
  const back = page.getByRole('link', { name: /Your pets/ });
  await back.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/quote$/);
  await expect(page.getByLabel("What is your pet's name?")).toHaveValue('Biscuit');
  await expect(page.getByRole('radio', { name: 'Female' })).toBeChecked();
  await expect(page.getByLabel(/^How much did you pay for .+\?$/)).toHaveValue('450');
  await expect(page.getByRole('combobox', { name: /^What breed is .+\?$/ })).toHaveValue('Labrador Retriever');
  await screenshot(page, testInfo, '04-pet-details-again');

  expect(problems()).toEqual([]);
});

// A rule only the server knows (journey.md §5 Age rule) comes back as a field error on its field.
test('a rule only the server can check lands on its field', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote');
  const now = new Date();
  const young = new Date(now.getTime() - 10 * 24 * 3600 * 1000);
  await page.getByLabel("What is your pet's name?").fill('Pip');
  await page.getByRole('radio', { name: 'Cat' }).check();
  await page.getByRole('radio', { name: 'Moggie' }).check();
  await page.getByRole('textbox', { name: 'Day' }).fill(String(young.getDate()).padStart(2, '0'));
  await page.getByRole('textbox', { name: 'Month' }).fill(String(young.getMonth() + 1).padStart(2, '0'));
  await page.getByRole('textbox', { name: 'Year' }).fill(String(young.getFullYear()));
  await page.getByRole('radio', { name: 'Male', exact: true }).check();
  await page.getByRole('group', { name: /^Has .+ been neutered\?$/ }).getByRole('radio', { name: 'No' }).check();
  await page.getByRole('group', { name: /^Has .+ had any injury or illness\?$/ }).getByRole('radio', { name: 'No' }).check();
  await page.getByRole('checkbox', { name: "I didn't pay anything" }).check();
  await page.getByRole('button', { name: 'Next' }).click();

  await expect(page.getByRole('alert').filter({ hasText: 'Please Check the following fields:' })).toContainText(
    "What is Pip's date of birth? – New cover is only available for pets from 8 weeks old",
  );
  await expect(page.getByRole('textbox', { name: 'Day' })).toBeFocused();
  await expect(page).toHaveURL(/\/quote$/);
  await expectAccessible(page);
  await screenshot(page, testInfo, '05-server-field-error');
  expect(problems().filter((p) => !p.includes('422'))).toEqual([]);
});

test('an unknown page says so, in the catalogue\'s words, and leads back to the quote', async ({ page }, testInfo) => {
  await page.goto('/quote/no-such-page');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, '06-not-found');
  await page.getByRole('link', { name: 'Go to the start of your quote' }).click();
  await expect(page).toHaveURL(/\/quote$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
});
