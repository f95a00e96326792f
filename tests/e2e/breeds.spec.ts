import { expect, test } from '@playwright/test';

import { chooseBreed, fillTheRest } from './support-pets';
import { expectAccessible, screenshot, watchConsole } from './support';

// journey.md §3 (Pet, Breed data), §4 (Pet details) and §5 (Pet form), in a browser.

test('a pedigree cat found by the breed search', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote');
  await page.getByLabel("What is your pet's name?").fill('Tigger');
  await page.getByRole('radio', { name: 'Cat' }).check();
  await page.getByRole('group', { name: /^What type of cat is .+\?$/ }).getByRole('radio', { name: 'Pedigree' }).check();
  await chooseBreed(page, 'beng', 'Bengal');
  await fillTheRest(page, 'Tigger');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'cat-pedigree');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/your-details$/);
  expect(problems()).toEqual([]);
});

test('a Lionhead rabbit: the type is the breed, no search', async ({ page }, testInfo) => {
  await page.goto('/quote');
  await page.getByLabel("What is your pet's name?").fill('Thumper');
  await page.getByRole('radio', { name: 'Rabbit' }).check();
  await page.getByRole('radio', { name: 'Lionhead' }).check();
  await expect(page.getByRole('combobox', { name: /^What breed is .+\?$/ })).toHaveCount(0);
  await fillTheRest(page, 'Thumper');
  await screenshot(page, testInfo, 'rabbit-lionhead');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/your-details$/);
});

test('a banned breed shows the cannot-insure panel and saving is disabled', async ({ page }, testInfo) => {
  await page.goto('/quote');
  await page.getByLabel("What is your pet's name?").fill('Tyson');
  await page.getByRole('radio', { name: 'Dog' }).check();
  await page.getByRole('group', { name: /^What type of dog is .+\?$/ }).getByRole('radio', { name: 'Pedigree' }).check();
  await chooseBreed(page, 'pit', 'Pit Bull Terrier');
  await expect(page.getByRole('alert').filter({ hasText: "Sorry, we don't insure this breed." })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'banned-breed');
});

test('an at-risk breed asks the XL Bully question; yes cannot be insured', async ({ page }, testInfo) => {
  await page.goto('/quote');
  await page.getByLabel("What is your pet's name?").fill('Bruno');
  await page.getByRole('radio', { name: 'Dog' }).check();
  await page.getByRole('group', { name: /^What type of dog is .+\?$/ }).getByRole('radio', { name: 'Pedigree' }).check();
  const question = page.getByRole('group', { name: /XL Bully type/ });
  await expect(question).toHaveCount(0);
  await chooseBreed(page, 'staff', 'Staffordshire Bull Terrier');
  await expect(question).toBeVisible();
  await question.getByRole('radio', { name: 'Yes' }).check();
  await expect(page.getByRole('alert').filter({ hasText: 'Sorry, we are unable to insure your pet.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'xl-bully-yes');
  await question.getByRole('radio', { name: 'No' }).check();
  await fillTheRest(page, 'Bruno');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/your-details$/);
});

test('a dog that needs no third party liability says so', async ({ page }, testInfo) => {
  await page.goto('/quote');
  await page.getByRole('radio', { name: 'Dog' }).check();
  await page.getByRole('group', { name: /^What type of dog is .+\?$/ }).getByRole('radio', { name: 'Pedigree' }).check();
  await chooseBreed(page, 'akita', 'Akita');
  await expect(page.getByText("We do cover this breed, but we cannot cover them for Third Party Liability. We'll adjust your premium to show this.")).toBeVisible();
  await screenshot(page, testInfo, 'third-party-liability-notice');
});

test('a crossbreed goes on to the crossbreed page and confirms its parents there, by keyboard', async ({ page }, testInfo) => {
  await page.goto('/quote');
  await page.getByLabel("What is your pet's name?").fill('Poppy');
  await page.getByRole('radio', { name: 'Dog' }).check();
  await page.getByRole('group', { name: /^What type of dog is .+\?$/ }).getByRole('radio', { name: 'Crossbreed' }).check();
  await chooseBreed(page, 'cocka', 'Cockapoo');
  await fillTheRest(page, 'Poppy');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/crossbreed$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Just before you see your quote' })).toBeVisible();
  // The breeds we cannot insure come from the breed data.
  for (const banned of ['Pit Bull Terrier', 'Japanese Tosa', 'Dogo Argentino', 'Fila Brasileiro', 'XL Bully']) {
    await expect(page.getByRole('listitem').filter({ hasText: banned })).toBeVisible();
  }
  await expect(page.getByRole('heading', { level: 2, name: 'Poppy' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'crossbreed');

  const next = page.getByRole('button', { name: 'Next' });
  await next.focus();
  await page.keyboard.press('Enter');
  const tick = page.getByRole('checkbox', { name: /neither of my dog's parents/ });
  await expect(page.getByRole('alert').filter({ hasText: 'Please Check the following fields:' })).toContainText('Please tick the checkbox to confirm');
  await expect(tick).toBeFocused();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'crossbreed-error');
  await page.keyboard.press('Space');
  await expect(tick).toBeChecked();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/quote\/your-details$/);
});
