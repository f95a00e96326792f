import { expect, test } from '@playwright/test';

import { expectAccessible, screenshot, watchConsole } from './support';
import { describeRex } from './support-pets';

// Friction on the forms (journey.md §2 Error summary: "Please Check the following
// fields:", each invalid field listed).

test('an empty submit names each field in the summary, each once', async ({ page }) => {
  await page.goto('/quote');
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'Please Check the following fields:' });
  await expect(summary).toBeVisible();
  const items = await summary.getByRole('link').allTextContents();
  expect(items.length).toBeGreaterThanOrEqual(5);
  // No two alike: each says which question it is about.
  expect(new Set(items).size).toBe(items.length);
  for (const item of items) expect(item).toMatch(/^.+\? – .+/);
  expect(items).toContain("What is your pet's name? – This field is required");
  await expectAccessible(page);
});

// The breed suggestions open in view, so typing is seen to do something.
test('the breed suggestions open where they can be seen', async ({ page }, testInfo) => {
  if (testInfo.project.name === 'desktop') await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/quote');
  await page.getByLabel("What is your pet's name?").fill('Rex');
  await page.getByRole('radio', { name: 'Dog', exact: true }).check();
  await page.getByRole('radio', { name: 'Pedigree', exact: true }).check();
  const box = page.getByRole('combobox', { name: /^What breed is .+\?$/ });
  await box.focus();
  await page.keyboard.type('spa');
  const list = page.getByRole('listbox', { name: /^What breed is .+\?$/ });
  await expect(list).toBeVisible();
  await expect
    .poll(() => list.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; }))
    .toBe(true);
  await expect(box).toBeInViewport();
});

// Questions use the pet's name once it is known; a finished pet folds to a summary
// with Edit when there is more than one; breeds read as owners say them, and the Kennel Club's
// name still finds them.
test('two pets: each asked about by name, the finished one folded with Edit', async ({ page }, testInfo) => {
  if (testInfo.project.name === 'desktop') await page.setViewportSize({ width: 1280, height: 800 });
  const problems = watchConsole(page);
  await page.goto('/quote');
  const sections = page.locator('section.pet');
  const rex = sections.nth(0);
  await expect(rex.getByRole('group', { name: 'Is your pet male or female?', exact: true })).toBeVisible();
  await rex.getByLabel("What is your pet's name?").fill('Rex');
  await expect(rex.getByRole('group', { name: 'Is Rex male or female?', exact: true })).toBeVisible();
  await expect(rex.getByRole('group', { name: 'Is your pet male or female?', exact: true })).toHaveCount(0);
  await rex.getByRole('radio', { name: 'Dog', exact: true }).check();
  await rex.getByRole('radio', { name: 'Pedigree', exact: true }).check();
  const breed = rex.getByRole('combobox', { name: 'What breed is Rex?', exact: true });
  await breed.pressSequentially('spaniel (c');
  await page.getByRole('option', { name: 'Cocker Spaniel', exact: true }).click();
  await expect(breed).toHaveValue('Cocker Spaniel');
  await rex.getByRole('group', { name: "What is Rex's date of birth?", exact: true }).getByRole('textbox', { name: 'Day' }).fill('01');
  await rex.getByRole('textbox', { name: 'Month' }).fill('02');
  await rex.getByRole('textbox', { name: 'Year' }).fill('2023');
  await rex.getByRole('group', { name: 'Is Rex male or female?', exact: true }).getByRole('radio', { name: 'Male', exact: true }).check();
  await rex.getByRole('group', { name: 'Has Rex been neutered?', exact: true }).getByRole('radio', { name: 'Yes' }).check();
  await rex.getByRole('group', { name: 'Has Rex had any injury or illness?', exact: true }).getByRole('radio', { name: 'No' }).check();
  await rex.getByRole('textbox', { name: 'How much did you pay for Rex?', exact: true }).fill('650');

  const open = (await rex.boundingBox())!.height;
  await page.getByRole('button', { name: 'Add another pet' }).click();
  const tigger = sections.nth(1);
  await expect(tigger.getByLabel("What is your pet's name?")).toBeFocused();
  // Rex folds to one line and two buttons; his answers stay in the form.
  await expect(rex.getByText('Dog, Cocker Spaniel, Male, born 01/02/2023')).toBeVisible();
  await expect(rex.getByRole('button', { name: 'Edit Rex', exact: true })).toBeVisible();
  await expect(rex.getByRole('button', { name: 'Remove Rex', exact: true })).toBeVisible();
  await expect(rex.getByLabel("What is your pet's name?")).toBeHidden();
  expect((await rex.boundingBox())!.height).toBeLessThan(open / 5);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'pets-folded');

  await tigger.getByLabel("What is your pet's name?").fill('Tigger');
  await tigger.getByRole('radio', { name: 'Cat', exact: true }).check();
  await tigger.getByRole('group', { name: 'What type of cat is Tigger?', exact: true }).getByRole('radio', { name: 'Moggie' }).check();
  await tigger.getByRole('textbox', { name: 'Day' }).fill('15');
  await tigger.getByRole('textbox', { name: 'Month' }).fill('06');
  await tigger.getByRole('textbox', { name: 'Year' }).fill('2022');
  await tigger.getByRole('group', { name: 'Is Tigger male or female?', exact: true }).getByRole('radio', { name: 'Female' }).check();
  await tigger.getByRole('group', { name: 'Has Tigger been neutered?', exact: true }).getByRole('radio', { name: 'Yes' }).check();
  await tigger.getByRole('group', { name: 'Has Tigger had any injury or illness?', exact: true }).getByRole('radio', { name: 'No' }).check();
  await tigger.getByRole('checkbox', { name: "I didn't pay anything" }).check();

  // Edit opens Rex again at his name, with his answers.
  await rex.getByRole('button', { name: 'Edit Rex' }).click();
  await expect(rex.getByLabel("What is your pet's name?")).toBeFocused();
  await expect(rex.getByLabel("What is your pet's name?")).toHaveValue('Rex');
  await expect(rex.getByRole('textbox', { name: 'How much did you pay for Rex?', exact: true })).toHaveValue('650');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/your-details$/);

  // Back on the pets page, both finished pets are folded.
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  await expect(rex.getByRole('button', { name: 'Edit Rex' })).toBeVisible();
  await expect(tigger.getByRole('button', { name: 'Edit Tigger' })).toBeVisible();
  await expect(tigger.getByText('Cat, Moggie, Female, born 15/06/2022')).toBeVisible();
  // A pet added and left empty is not finished, so it stays open.
  await page.getByRole('button', { name: 'Add another pet' }).click();
  await expect(sections.nth(2).getByLabel("What is your pet's name?")).toBeVisible();
  await expectAccessible(page);
  expect(problems()).toEqual([]);
});

// A pet's cost as people write it, "£1,200", is taken (the same rule as the server's,
// tests/fixtures/amounts.json); a comma that groups nothing is still refused.
test('a pet cost with its thousands separator is taken as written', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote?brand=pos');
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  await describeRex(page);
  await page.getByRole('checkbox', { name: "I didn't pay anything" }).uncheck();
  const cost = page.getByRole('textbox', { name: 'How much did you pay for Rex?' });
  await cost.fill('12,50');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please Check the following fields:' })).toBeVisible();
  await cost.fill('£1,200');
  await expect(cost).toHaveValue('£1,200');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'pet-cost-grouped');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/your-details/);
  const view = await page.request.get('/quote/your-details', { headers: { Accept: 'application/json' } });
  expect((await view.json()).data.pets[0].pet_cost).toBe('1200');
  expect(problems()).toEqual([]);
});

// Retrieve-quote: the error summary names each field, and too many tries are said on the
// page with the brand's number rather than as a fault of the reference.
test('retrieve names its fields, and too many tries are a page notice with the number to call', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote/retrieve-quote?brand=pos');
  await expect(page.getByRole('heading', { level: 1, name: 'Retrieve your quote' })).toBeVisible();
  await page.getByRole('button', { name: 'Retrieve quote' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'Please Check the following fields:' });
  await expect(summary.getByRole('link')).toHaveText(['Quote reference – This field is required', 'Email address – This field is required']);
  await expectAccessible(page);

  await page.getByRole('textbox', { name: 'Quote reference' }).fill('ZZZZ-ZZZZ-ZZZZ');
  await page.getByRole('textbox', { name: 'Email address' }).fill('nobody@example.com');
  const notice = page.getByRole('alert').filter({ hasText: 'call us on 0808 157 0000' });
  // A session's ten tries; the eleventh is refused.
  for (let i = 0; i < 11 && !(await notice.isVisible()); i++) {
    await page.getByRole('button', { name: 'Retrieve quote' }).click();
    await expect(page.getByRole('button', { name: 'Retrieve quote' })).toBeEnabled();
  }
  await expect(notice).toBeVisible();
  await expect(notice).toBeFocused();
  await expect(page.locator('[data-field="quote_reference"] .field__error')).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'retrieve-too-many');
  // The refusals themselves are logged by the browser as failed loads (422, then 429).
  expect(problems().filter((p) => !/status of 4(22|29)/.test(p))).toEqual([]);
});

// The remove-pet dialog opens over a dimmed page with the focus on Cancel, never on the
// permanent action.
test('removing a pet asks over a dimmed page, with the focus on Cancel', async ({ page }, testInfo) => {
  await page.goto('/quote?brand=pos');
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  await describeRex(page);
  await page.getByRole('button', { name: 'Add another pet' }).click();
  await page.getByRole('button', { name: 'Remove Rex', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove Rex from the application?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  const backdrop = await dialog.evaluate((d) => getComputedStyle(d, '::backdrop').backgroundColor);
  expect(backdrop).toBe('rgba(0, 0, 0, 0.5)');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'remove-pet-dialog');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 2, name: 'Tell us about Rex' })).toBeVisible();
});
