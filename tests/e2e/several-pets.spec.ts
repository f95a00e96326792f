import { expect, type Locator, type Page, test } from '@playwright/test';

import { expectAccessible, screenshot, watchConsole } from './support';

// journey.md §3 (Pet: ids in order), §4 (Add another pet, Remove pet), §2 Modals (remove pet)
// and §8 (remove pet toasts), in a browser.

async function fillPet(page: Page, section: Locator, pet: { name: string; species: string; type: string; breed?: [string, string] }) {
  await section.getByLabel("What is your pet's name?").fill(pet.name);
  await section.getByRole('radio', { name: pet.species, exact: true }).check();
  await section.getByRole('radio', { name: pet.type, exact: true }).check();
  if (pet.breed) {
    const box = section.getByRole('combobox', { name: /^What breed is .+\?$/ });
    await box.pressSequentially(pet.breed[0]);
    await page.getByRole('option', { name: pet.breed[1], exact: true }).click();
    await expect(box).toHaveValue(pet.breed[1]);
  }
  await section.getByRole('textbox', { name: 'Day' }).fill('01');
  await section.getByRole('textbox', { name: 'Month' }).fill('02');
  await section.getByRole('textbox', { name: 'Year' }).fill('2023');
  await section.getByRole('radio', { name: 'Male', exact: true }).check();
  await section.getByRole('group', { name: /^Has .+ been neutered\?$/ }).getByRole('radio', { name: 'Yes' }).check();
  await section.getByRole('group', { name: /^Has .+ had any injury or illness\?$/ }).getByRole('radio', { name: 'No' }).check();
  await section.getByRole('checkbox', { name: "I didn't pay anything" }).check();
}

test('a dog, a cat and a rabbit in one quote; one removed through the modal', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote');
  const sections = page.locator('section.pet');
  await expect(page.getByRole('button', { name: /^Remove/ })).toHaveCount(0); // only with more than one pet

  await fillPet(page, sections.nth(0), { name: 'Rex', species: 'Dog', type: 'Pedigree', breed: ['beag', 'Beagle'] });
  await page.getByRole('button', { name: 'Add another pet' }).click();
  await expect(sections.nth(1).getByLabel("What is your pet's name?")).toBeFocused();
  await fillPet(page, sections.nth(1), { name: 'Tigger', species: 'Cat', type: 'Moggie' });
  await page.getByRole('button', { name: 'Add another pet' }).click();
  await fillPet(page, sections.nth(2), { name: 'Thumper', species: 'Rabbit', type: 'Lionhead' });
  await expect(page.getByRole('heading', { level: 2, name: 'Tell us about Thumper' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'three-pets');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/your-details$/);

  await page.getByRole('link', { name: /Your pets/ }).click();
  await expect(sections).toHaveCount(3);
  // Keyboard: open the modal, which takes the focus; Remove pet.
  await page.getByRole('button', { name: 'Remove Tigger' }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Remove Tigger from the application?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('This action is permanent and you will lose all information regarding Tigger.');
  await expect(dialog).toContainText('Multi-pet discount will be removed from your quote');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'remove-pet-modal');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Remove Tigger' }).click();
  await dialog.getByRole('button', { name: 'Remove pet' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Success: Your pet has been removed from the quote.' })).toBeVisible();
  await expect(sections).toHaveCount(2);
  await expect(page.getByRole('heading', { level: 2, name: 'Tell us about Rex' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Tell us about Thumper' })).toBeVisible();
  await screenshot(page, testInfo, 'pet-removed');

  // A pet added (the pets before it saved first, and a blank slot with them) and
  // removed again before it is described.
  await page.getByRole('button', { name: 'Add another pet' }).click();
  await expect(sections).toHaveCount(3);
  await page.getByRole('button', { name: 'Remove pet' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove pet' }).click();
  await expect(sections).toHaveCount(2);
  await page.reload();
  await expect(sections).toHaveCount(2);
  expect(problems()).toEqual([]);
});
