import { expect, test } from '@playwright/test';

import { expectAccessible, screenshot, watchConsole } from './support';
import { describeRex, describeTigger } from './support-pets';

// Nothing the customer typed is lost. journey.md §4 Add another pet: "elsewhere the pets
// are saved first" (through /api/petdetails, the norequote=1 variant while no pet has a product,
// §7); a pet not saved yet is kept in the tab, so a reload (or a phone discarding the tab while
// the owner looks up a date of birth) shows it again.

test('a pet added saves the pets before it, and a reload loses neither them nor the one being typed', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote?brand=pos');
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  await describeRex(page);

  const saved = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/api/petdetails?norequote=1'));
  await page.getByRole('button', { name: 'Add another pet' }).click();
  const body = (await saved).postDataJSON() as { pets: Array<Record<string, unknown>> };
  expect(body.pets.map((p) => p.pet_name)).toEqual(['Rex']);
  const sections = page.locator('section.pet');
  await expect(sections).toHaveCount(2);
  // Still the pet details page, with the new pet's first question in focus and Rex folded.
  await expect(page).toHaveURL(/\/quote\?brand=pos$|\/quote$/);
  await expect(sections.nth(1).getByLabel("What is your pet's name?")).toBeFocused();
  await expect(sections.nth(0).getByText('Dog, Beagle, Male, born 01/02/2023')).toBeVisible();

  // Half of a second pet, then the tab is reloaded.
  const tigger = sections.nth(1);
  await tigger.getByLabel("What is your pet's name?").fill('Tigger');
  await tigger.getByRole('radio', { name: 'Cat', exact: true }).check();
  await tigger.getByRole('textbox', { name: 'Day' }).fill('15');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  await expect(sections).toHaveCount(2);
  await expect(sections.nth(0).getByText('Dog, Beagle, Male, born 01/02/2023')).toBeVisible();
  await expect(sections.nth(0).getByRole('button', { name: 'Edit Rex' })).toBeVisible();
  await expect(tigger.getByLabel("What is your pet's name?")).toHaveValue('Tigger');
  await expect(tigger.getByRole('radio', { name: 'Cat', exact: true })).toBeChecked();
  await expect(tigger.getByRole('textbox', { name: 'Day' })).toHaveValue('15');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'pets-kept-on-reload');

  // A new tab of the same browser has the saved pet from the server, not the other tab's typing.
  const other = await page.context().newPage();
  await other.goto('/quote');
  await expect(other.locator('section.pet').nth(0).getByRole('button', { name: 'Edit Rex' })).toBeVisible();
  await expect(other.locator('section.pet').nth(1).getByLabel("What is your pet's name?")).toHaveValue('');
  await other.close();

  // Finished and sent on: the pets are the server's from then on.
  await describeTigger(tigger);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/your-details$/);
  expect(problems()).toEqual([]);
});

test('adding a pet while one is unfinished names what is missing and adds nothing', async ({ page }) => {
  await page.goto('/quote?brand=pos');
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  await page.getByLabel("What is your pet's name?").fill('Rex');
  let saves = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/petdetails') || r.url().includes('/api/addpetid')) saves++;
  });
  await page.getByRole('button', { name: 'Add another pet' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'Please Check the following fields:' });
  await expect(summary).toBeVisible();
  await expect(summary.getByRole('link', { name: /^Is Rex a dog, cat or rabbit\? – / })).toBeVisible();
  await expect(page.locator('section.pet')).toHaveCount(1);
  expect(saves).toBe(0);
  await expectAccessible(page);
});
