import { expect, type Locator, type Page, type Request, test } from '@playwright/test';

import { expectAccessible, screenshot, showVariation, watchConsole } from './support';
import { fillYourDetails } from './support-owner';

// journey.md §2 Cover select and Review, §4 Cover selection; owner-payment.md §2 Review quote
// header, §4 Prices and Owner save, in a browser: two pets through choose policy with keyboard
// and mouse, an excess change re-quotes, the upsell changes level, review shows totals and
// discounts, a changed address re-quotes with its information toast.

async function fillPet(page: Page, section: Locator, pet: { name: string; species: string; type: string; breed?: [string, string] }) {
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
  await section.getByRole('group', { name: /^Has .+ had any injury or illness\?$/ }).getByRole('radio', { name: 'No' }).check();
  await section.getByRole('checkbox', { name: "I didn't pay anything" }).check();
}

function pounds(s: string | null): number {
  const m = /£([\d,]+\.\d{2})/.exec(s ?? '');
  if (!m) throw new Error(`no price in ${s}`);
  return Math.round(Number(m[1].replace(/,/g, '')) * 100);
}

test('two pets through choose policy by keyboard and mouse, then review', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote');
  await showVariation(page, 'tiles');
  const sections = page.locator('section.pet');
  await fillPet(page, sections.nth(0), { name: 'Rex', species: 'Dog', type: 'Pedigree', breed: ['beag', 'Beagle'] });
  await page.getByRole('button', { name: 'Add another pet' }).click();
  await fillPet(page, sections.nth(1), { name: 'Tigger', species: 'Cat', type: 'Moggie' });
  await page.getByRole('button', { name: 'Next' }).click();
  await fillYourDetails(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);

  // Rex: the cover type tiles, Lifetime already chosen for a dog (journey.md §4).
  await expect(page.getByRole('heading', { name: "Choose Rex's cover" })).toBeVisible();
  await expect(page.getByText('Step 1 of 3')).toBeVisible();
  await expect(page.getByRole('tab', { name: /Cover type/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Selected – Lifetime' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'choose-policy-type');

  // Keyboard: arrow to the Cover level tab.
  await page.getByRole('tab', { name: /Cover type/ }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: /Cover level/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Step 2 of 3')).toBeVisible();
  // The default level is the second cheapest (£2,000) and already chosen.
  await expect(page.getByRole('button', { name: 'Selected – £2,000' })).toBeVisible();
  // Choose £4,000 with the keyboard.
  await page.getByRole('button', { name: 'Select – £4,000' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Selected – £4,000' })).toBeVisible();
  const bar = page.getByRole('region', { name: "Rex's price" });
  const lt4000 = pounds(await bar.textContent());
  await expectAccessible(page);
  await screenshot(page, testInfo, 'choose-policy-level');

  // Excess: a higher set excess re-quotes the pet and lowers the price (journey.md §4).
  await page.getByRole('tab', { name: /Excess/ }).click();
  await expect(page.getByText('Step 3 of 3')).toBeVisible();
  const claim = page.getByRole('region', { name: 'Claim example' });
  await expect(claim).toContainText('you pay £189.10');
  const requote = page.waitForRequest((r) => r.url().endsWith('/api/getFlexProducts'));
  // One call per change. The re-quote's answer is the page as it now stands; the page
  // is not loaded again after it.
  const calls: string[] = [];
  const pageCall = (r: Request) => {
    const path = new URL(r.url()).pathname;
    if (r.resourceType() === 'fetch' && (path === '/api/getFlexProducts' || path.startsWith('/quote'))) calls.push(`${r.method()} ${path}`);
  };
  page.on('request', pageCall);
  // The radio follows the server's answer, so it is clicked and then awaited.
  await page.getByRole('radio', { name: '£199' }).click();
  const sent = (await requote).postDataJSON();
  expect(sent.pets).toEqual([{ id: 1, set_excess: '199', set_coins: 0.1 }]);
  await expect(page.getByRole('radio', { name: '£199' })).toBeChecked();
  await expect(claim).toContainText('you pay £279.10');
  await expect.poll(async () => pounds(await bar.textContent())).toBeLessThan(lt4000);
  page.off('request', pageCall);
  expect(calls).toEqual(['POST /api/getFlexProducts']);
  // With no claim contribution, the example speaks of the excess alone, not "plus 0% of the
  // remaining".
  await page.getByRole('radio', { name: 'No contribution' }).click();
  await expect(page.getByRole('radio', { name: 'No contribution' })).toBeChecked();
  await expect(claim).toContainText(/you pay £199(\.00)? \(the £199(\.00)? excess\) and we pay/);
  await expect(claim).not.toContainText('%');
  await page.getByRole('radio', { name: '10%' }).click();
  await expect(claim).toContainText('you pay £279.10');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'choose-policy-excess');

  // The benefits table modal.
  await page.getByRole('button', { name: "Find out what is and isn't covered" }).click();
  const benefits = page.getByRole('dialog', { name: 'Benefits by cover level' });
  await expect(benefits.getByRole('tab', { name: 'Lifetime £4,000' })).toHaveAttribute('aria-selected', 'true');
  await expect(benefits).toContainText('Third party liability');
  await expect(benefits.getByRole('link', { name: /Insurance product information document \(IPID\) – Lifetime/ })).toHaveAttribute('href', /ipid-dog-lt-2026-(06|12)$/);
  await expectAccessible(page);
  await benefits.getByRole('button', { name: 'Close' }).click();

  // The upsell: a higher limit, its toast, the level updated (journey.md §4 Upsell).
  const upsell = page.getByRole('region', { name: 'Other cover options' });
  await upsell.getByRole('button', { name: 'Choose £6,000 cover' }).click();
  await expect(page.getByText('Your cover level has been updated.')).toBeVisible();
  await expect(page.getByRole('tab', { name: /Cover level/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Selected – £6,000' })).toBeVisible();
  await expect(upsell).toHaveCount(0);

  // Next: Tigger's cover.
  await page.getByRole('region', { name: "What's included?" }).scrollIntoViewIfNeeded();
  // journey.md §7: the viewed products of pets other than the first, by beacon; the server
  // checks each "{pet}_{code}" key against the quote and answers 204.
  const viewed = page.waitForResponse((r) => r.url().endsWith('/api/trackViewedProducts'));
  await page.getByRole('button', { name: "Next: Tigger's cover" }).click();
  await expect(page.getByRole('heading', { name: "Choose Tigger's cover" })).toBeVisible();
  // A cat chooses its group: Cover level asks for one first.
  await page.getByRole('tab', { name: /Cover level/ }).click();
  await expect(page.getByRole('alert').getByText('Please choose a product type before progressing to choose a cover level.')).toBeVisible();
  await page.getByRole('button', { name: 'Choose cover level – Time Limited' }).click();
  await expect(page.getByRole('tab', { name: /Cover level/ })).toHaveAttribute('aria-selected', 'true');
  expect((await viewed).status()).toBe(204);
  await page.getByRole('button', { name: 'Select – £2,000' }).click();
  await page.getByRole('region', { name: "What's included?" }).scrollIntoViewIfNeeded();
  await expect(page.getByRole('button', { name: "Back to Rex's cover" })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  // Review: totals, discounts, both pets (owner-payment.md §2, §4 Prices).
  await expect(page).toHaveURL(/\/quote\/review$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Rex' })).toBeVisible();
  const rex = page.getByRole('region', { name: 'Rex' });
  const tigger = page.getByRole('region', { name: 'Tigger' });
  await expect(rex).toContainText('Lifetime £6,000');
  await expect(rex).toContainText('£199');
  await expect(tigger).toContainText('Time Limited £2,000');
  const rexMonthly = pounds(await rex.locator('.review-pet__price').textContent());
  const tiggerMonthly = pounds(await tigger.locator('.review-pet__price').textContent());
  const total = page.locator('.quote-facts__total');
  expect(pounds(await total.textContent())).toBe(rexMonthly + tiggerMonthly);
  const discounts = page.getByRole('region', { name: 'Your discounts' });
  await expect(discounts).toContainText('Multi-pet discount');
  await expect(discounts).toContainText('−£2.00');
  await discounts.getByRole('radio', { name: 'Annual' }).check();
  await expect(discounts).toContainText('−£24.00');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'review');

  // Important documents: each pet's policy wording and its IPID by species and cover type
  // (owner-payment.md Documents), each a page of its own.
  const documents = page.getByRole('region', { name: 'Important documents' });
  const ipid = documents.getByRole('link', { name: /Insurance product information document \(IPID\) – Tigger/ });
  await expect(ipid).toHaveAttribute('href', /\/quote\/documents\/ipid-cat-tl-2026-(06|12)$/);
  await expect(documents.getByRole('link', { name: /Policy wording – Rex/ })).toHaveAttribute('href', /policy-wording-dog-cat-2026-(06|12)$/);
  const [doc] = await Promise.all([page.context().waitForEvent('page'), ipid.click()]);
  await doc.waitForLoadState();
  await expect(doc.getByRole('heading', { level: 1, name: 'Insurance product information document (IPID)' })).toBeVisible();
  await expect(doc.getByText('Time Limited cover for cats')).toBeVisible();
  await expectAccessible(doc);
  await screenshot(doc, testInfo, 'document-ipid');
  await doc.close();
  await documents.getByRole('button', { name: 'Documents and excess explained' }).click();
  const excess = page.getByRole('dialog', { name: 'Documents and excess explained' });
  await expect(excess.getByRole('region', { name: 'Rex' })).toContainText('You pay the first £199 of each condition');
  await expect(excess.getByRole('region', { name: 'Rex' })).toContainText("From your pet's 8th birthday");
  await expectAccessible(page);
  await excess.getByRole('button', { name: 'Close' }).click();

  // The claim contribution changes at once (journey.md §4).
  await rex.getByRole('radio', { name: 'No contribution' }).click();
  await expect(rex.getByRole('radio', { name: 'No contribution' })).toBeChecked();
  await expect.poll(async () => pounds(await rex.locator('.review-pet__price').textContent())).toBeGreaterThan(rexMonthly);

  // The change-cover modal (journey.md §2 Modals: radio lists, "Save and close").
  await tigger.getByRole('button', { name: 'Change cover for Tigger' }).click();
  const coverModal = page.getByRole('dialog', { name: "Change Tigger's cover" });
  await coverModal.getByRole('radio', { name: 'Lifetime' }).check();
  await coverModal.getByRole('radio', { name: /^£4,000 vet fees/ }).check();
  await expectAccessible(page);
  await coverModal.getByRole('button', { name: 'Save and close' }).click();
  await expect(coverModal).toHaveCount(0);
  await expect(tigger).toContainText('Lifetime £4,000');

  // Quote reminders opt-out (journey.md §2 Modals).
  const reminders = page.getByRole('region', { name: 'Your details' });
  await reminders.getByRole('button', { name: 'Change quote reminders' }).click();
  const reminderModal = page.getByRole('dialog', { name: 'Quote reminders' });
  await reminderModal.getByRole('checkbox', { name: "Don't send me quote reminders" }).check();
  await reminderModal.getByRole('button', { name: 'Save and close' }).click();
  await expect(reminders).toContainText("You've asked us not to send quote reminders.");

  // The address modal: a new address re-quotes, with the information toast (owner-payment.md §8).
  await page.getByRole('button', { name: 'Change address' }).click();
  const owner = page.getByRole('dialog', { name: 'Change address' });
  await expect(owner.getByLabel('Email address')).toBeVisible();
  await expect(owner.getByLabel('First name')).toHaveCount(0);
  await owner.getByRole('button', { name: 'Search again' }).click();
  await owner.getByLabel('House name or number').fill('3');
  await owner.getByLabel('Postcode').fill('LE5 5PL');
  await owner.getByLabel('Postcode').press('Enter');
  await expect(owner.locator('address')).toContainText('LE5 5PL');
  await expectAccessible(page);
  await owner.getByRole('button', { name: 'Save and close' }).click();
  await expect(page.getByText('Your address has been changed. Please note as a result of changing your address your price may have changed.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your details' })).toContainText('LE5 5PL');

  // Continue goes on to the assumptions page.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/quote\/assumptions$/);
  expect(problems()).toEqual([]);
});

test('the two-question guide chooses the cover type (journey.md §4 Cover selection, an experiment variation)', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote');
  await showVariation(page, 'guide');
  await fillPet(page, page.locator('section.pet').nth(0), { name: 'Tigger', species: 'Cat', type: 'Moggie' });
  await page.getByRole('button', { name: 'Next' }).click();
  await fillYourDetails(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  const longShort = page.getByRole('group', { name: 'Do you want cover for short-term and long-term ongoing conditions?' });
  await expect(longShort).toBeVisible();
  await expect(page.getByRole('button', { name: /Choose cover level – / })).toHaveCount(0);
  // No: Time Limited.
  await longShort.getByRole('radio', { name: 'No' }).check();
  await expect(page.getByRole('status').filter({ hasText: 'We suggest Time Limited cover.' })).toBeVisible();
  // Yes: the group is cleared and the second question asked; no every year: Max Benefit.
  await longShort.getByRole('radio', { name: 'Yes' }).check();
  await expect(page.getByText('We suggest')).toHaveCount(0);
  const everyYear = page.getByRole('group', { name: 'Do you want to cover ongoing conditions every year?' });
  await everyYear.getByRole('radio', { name: 'No' }).check();
  await expect(page.getByText('We suggest Max Benefit cover.')).toBeVisible();
  await everyYear.getByRole('radio', { name: 'Yes' }).check();
  await expect(page.getByText('We suggest Lifetime cover.')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'choose-policy-guide');
  await page.getByRole('button', { name: 'Choose cover level' }).click();
  await expect(page.getByRole('tab', { name: /Cover level/ })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: /^Select(ed)? – £2,000$/ }).click();
  await page.getByRole('region', { name: "What's included?" }).scrollIntoViewIfNeeded();
  // The page it was shown goes with the call (journey.md §6: experiment views in payloads).
  const saved = page.waitForRequest((r) => r.url().endsWith('/api/saveCover'));
  await page.getByRole('button', { name: 'Continue' }).click();
  expect((await saved).postDataJSON().experiment_views).toEqual(['cover_type_guide:guide']);
  await expect(page).toHaveURL(/\/quote\/review$/);
  await expect(page.getByRole('region', { name: 'Tigger' })).toContainText('Lifetime £2,000');
  expect(problems()).toEqual([]);
});
