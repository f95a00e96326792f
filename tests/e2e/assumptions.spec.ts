import { expect, type Locator, type Page, test } from '@playwright/test';

import { expectAccessible, screenshot, watchConsole } from './support';
import { chooseLifetimeForEveryPet } from './support-cover';
import { fillYourDetails } from './support-owner';

// journey.md §2 Assumptions ("Just before you pay..."), §4 Assumptions and health questions,
// §4 Pre-existing conditions and vet search, §4 Policy start date, §5; owner-payment.md §5 Vet
// and pre-existing conditions, in a browser.

async function fillPet(page: Page, section: Locator, pet: { name: string; species: string; type: string; breed?: [string, string]; ill: 'Yes' | 'No' }) {
  await section.getByLabel("What is your pet's name?").fill(pet.name);
  await section.getByRole('radio', { name: pet.species, exact: true }).check();
  await section.getByRole('radio', { name: pet.type, exact: true }).check();
  if (pet.breed) {
    const box = section.getByRole('combobox', { name: /^What breed is .+\?$/ });
    await box.pressSequentially(pet.breed[0]);
    await page.getByRole('option', { name: pet.breed[1], exact: true }).click();
  }
  await section.getByRole('textbox', { name: 'Day' }).fill('01');
  await section.getByRole('textbox', { name: 'Month' }).fill('02');
  await section.getByRole('textbox', { name: 'Year' }).fill('2023');
  await section.getByRole('radio', { name: 'Male', exact: true }).check();
  await section.getByRole('group', { name: /^Has .+ been neutered\?$/ }).getByRole('radio', { name: 'Yes' }).check();
  await section.getByRole('group', { name: /^Has .+ had any injury or illness\?$/ }).getByRole('radio', { name: pet.ill }).check();
  await section.getByRole('checkbox', { name: "I didn't pay anything" }).check();
}

function ukDate(d: Date): string {
  return `${String(d.getDate()).padStart(2, '0')}/${String(d.getMonth() + 1).padStart(2, '0')}/${d.getFullYear()}`;
}

test('assumptions confirmed; a blocking answer; a pre-existing condition with a vet found by postcode; the start date through "other"', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote');
  const sections = page.locator('section.pet');
  await fillPet(page, sections.nth(0), { name: 'Rex', species: 'Dog', type: 'Pedigree', breed: ['beag', 'Beagle'], ill: 'Yes' });
  await page.getByRole('button', { name: 'Add another pet' }).click();
  await fillPet(page, sections.nth(1), { name: 'Tigger', species: 'Cat', type: 'Moggie', ill: 'No' });
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/your-details$/);
  await fillYourDetails(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);

  await chooseLifetimeForEveryPet(page, ['Rex', 'Tigger']);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/quote\/assumptions$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Just before you pay...' })).toBeVisible();
  const rex = page.getByRole('region', { name: "What we've assumed about Rex" });
  const tigger = page.getByRole('region', { name: "What we've assumed about Tigger" });
  // journey.md §4: the dog is asked the dog questions, the cat is not.
  await expect(rex).toContainText('Is your dog a working dog');
  await expect(tigger).not.toContainText('Is your dog a working dog');
  await expect(tigger).toContainText('Is your pet microchipped?');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'assumptions');

  // Pre-existing conditions (journey.md §4): Rex answered yes to injury or illness.
  await expect(rex).toContainText('You told us Rex has had an injury or illness. Please add the details and your vet.');
  await rex.getByRole('button', { name: /Add details/ }).focus();
  await page.keyboard.press('Enter');
  const conditions = page.getByRole('dialog', { name: "Rex's pre-existing conditions" });
  await expect(conditions).toBeVisible();
  // Saving with nothing shows the spec's messages.
  await conditions.getByRole('button', { name: 'Save and close' }).click();
  await expect(conditions.getByText('Please search for your vet').first()).toBeVisible();
  const details = conditions.getByLabel('Tell us about the injury or illness');
  await details.fill('Limping on the front left leg');
  await expect(conditions).toContainText('971 characters remaining');
  const postcode = conditions.getByLabel("Your vet's postcode");
  // owner-payment.md §5: the postcode rules and messages.
  await postcode.fill('BS!');
  await postcode.press('Enter');
  await expect(conditions).toContainText('Invalid postcode');
  await postcode.fill('bs11 8nn');
  await postcode.press('Enter');
  const vets = conditions.getByRole('group', { name: 'Choose your vet' });
  await expect(vets.getByRole('radio').first()).toBeFocused();
  await expect(vets).toContainText('Meadowbank Vets');
  await page.keyboard.press('Space');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'pre-existing-conditions');
  await conditions.getByRole('button', { name: 'Save and close' }).focus();
  await page.keyboard.press('Enter');
  await expect(conditions).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: "Success: Your pet's details have been saved." })).toBeVisible();
  await expect(rex).toContainText("Thanks, the details of Rex's condition have been added.");
  await expect(rex.getByRole('button', { name: /Edit details/ })).toBeVisible();

  // A blocking answer (journey.md §4): a working dog cannot be covered; saving is disabled and,
  // with two pets, Remove pet is offered.
  await rex.getByRole('button', { name: /No, change assumptions/ }).click();
  const edit = page.getByRole('dialog', { name: "Change Rex's assumptions" });
  await expect(edit).toBeVisible();
  const working = edit.getByRole('group', { name: /working dog/ });
  await working.getByRole('radio', { name: 'Yes' }).focus();
  await page.keyboard.press('Space');
  await expect(edit.getByRole('alert')).toHaveText("We're sorry but we can't cover working dogs.");
  await expect(edit.getByRole('button', { name: 'Save and close' })).toBeDisabled();
  await expect(edit.getByRole('button', { name: 'Remove pet' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'blocking-answer');
  await working.getByRole('radio', { name: 'No' }).check();
  await expect(edit.getByRole('button', { name: 'Save and close' })).toBeEnabled();
  // A warning that does not block.
  await edit.getByRole('group', { name: /^Is .+ microchipped\?$/ }).getByRole('radio', { name: 'No' }).check();
  await expect(edit).toContainText('The law requires dogs and cats to be microchipped.');
  await edit.getByRole('button', { name: 'Save and close' }).click();
  await expect(edit).toBeHidden();
  await expect(rex.locator('[data-field="pets[0].pet_microchipped"]')).toContainText('No');

  // The policy start date through "other" (journey.md §4 Policy start date).
  await page.getByRole('button', { name: 'Change start date' }).click();
  const start = page.getByRole('dialog', { name: 'Cover start date' });
  await start.getByRole('radio', { name: 'Another date' }).check();
  const chosen = new Date();
  chosen.setDate(chosen.getDate() + 10);
  const iso = `${chosen.getFullYear()}-${String(chosen.getMonth() + 1).padStart(2, '0')}-${String(chosen.getDate()).padStart(2, '0')}`;
  await start.getByLabel('Start date').fill(iso);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'start-date');
  await start.getByRole('button', { name: 'Save and close' }).click();
  await expect(start).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Success: Your cover start date has been updated.' })).toBeVisible();
  await expect(page.getByText(`Your cover starts on ${ukDate(chosen)}`)).toBeVisible();

  // Go to payment: every pet's tick is needed.
  await page.getByRole('button', { name: 'Go to payment' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'Please Check the following fields:' });
  await expect(summary).toContainText('Please confirm the assumptions are correct');
  await expect(page.getByRole('checkbox', { name: /Yes, they're correct – Rex/ })).toBeFocused();
  await page.keyboard.press('Space');
  await tigger.getByRole('checkbox', { name: /Yes, they're correct/ }).focus();
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Go to payment' }).click();
  await expect(page).toHaveURL(/\/quote\/payment$/);
  // The one failed request is the vet search the server refused ("Invalid postcode"), as meant.
  expect(problems().filter((p) => !p.includes('status of 422'))).toEqual([]);
  expect(problems().filter((p) => p.includes('status of 422'))).toHaveLength(1);
});
