import { expect, type Page, test } from '@playwright/test';

import { acceptAnalytics, expectAccessible, mailTo, outboxDelivered, screenshot, watchConsole } from './support';
import { press } from './support-keys';
import { coverByKeyboard, detailsByKeyboard, directDebitByKeyboard, petByKeyboard, type Pet } from './support-journey';

// These read the data layer (owner-payment.md §4 Analytics): the customer has accepted analytics cookies.
test.beforeEach(async ({ page }) => acceptAnalytics(page));

// A full direct purchase by keyboard alone, from /quote to /confirmation,
// for one dog and for two pets, and the confirmation email arriving at the local SMTP server
// (owner-payment.md §2 Payment page, Bank details panel, Confirmation page; §4 Confirmation:
// "a confirmation email is requested with send_confirmation_email=1").

async function buyByKeyboard(page: Page, testInfo: Parameters<Parameters<typeof test>[1]>[1], email: string, pets: Pet[]) {
  const problems = watchConsole(page);
  await page.goto('/quote');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const [i, pet] of pets.entries()) {
    if (i > 0) await press(page, page.getByRole('button', { name: 'Add another pet' }));
    await petByKeyboard(page, i, pet);
  }
  await press(page, page.getByRole('button', { name: 'Next' }));
  await detailsByKeyboard(page, email);
  await press(page, page.getByRole('button', { name: 'Next' }));
  await coverByKeyboard(page, pets.map((p) => p.name));

  // Review, then the assumptions.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The demands-and-needs statement for what was chosen, each pet's (ICOBS 5.2.2).
  const demands = page.getByRole('region', { name: 'Your demands and needs' });
  for (const p of pets) {
    await expect(demands).toContainText(new RegExp(`${p.name}'s \\w[\\w ]* cover meets the demands and needs of someone who wants to insure their pet against the cost of vet treatment for injury and illness, up to £[\\d,]+, paying the first £[\\d,.]+ of each claim themselves\\.`));
  }
  await expect(demands).toContainText('We have not given you a personal recommendation');
  await screenshot(page, testInfo, 'review');
  await press(page, page.getByRole('button', { name: 'Continue' }));
  await expect(page).toHaveURL(/\/quote\/assumptions$/);
  // Wait for the page itself (the address changes first), then tick every pet's box.
  const ticks = page.getByRole('checkbox', { name: /Yes, they're correct/ });
  await expect(ticks).toHaveCount(pets.length);
  for (const tick of await ticks.all()) await press(page, tick, 'Space');
  await press(page, page.getByRole('button', { name: 'Go to payment' }));

  // Payment by Direct Debit.
  await directDebitByKeyboard(page);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'payment');
  await press(page, page.getByRole('button', { name: 'Confirm payment' }));

  // The bank details panel, then buy.
  await expect(page).toHaveURL(/\/quote\/payment-confirmation$/);
  await expect(page.getByRole('region', { name: 'Your bank details' })).toContainText('08-99-99');
  await expectAccessible(page);
  await press(page, page.getByRole('button', { name: 'Continue' }));

  // The confirmation: heading focused, a policy per pet.
  await expect(page).toHaveURL(/\/quote\/confirmation$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Pawsome!' })).toBeFocused();
  const numbers: string[] = [];
  for (const pet of pets) {
    const region = page.getByRole('region', { name: pet.name });
    await expect(region).toContainText(/PETPS\d{7}/);
    // journey.md §9, owner-payment.md §9: the excess on confirmation, as bought.
    await expect(region).toContainText(/Excess£(99|50) for each condition, each policy year/);
    // journey.md §9: the rating badge on confirmation too (Lifetime £4,000 on pos has it).
    await expect(region).toContainText('5★ rated');
    numbers.push(/PETPS\d{7}/.exec((await region.textContent()) ?? '')?.[0] ?? '');
  }
  await expectAccessible(page);
  await screenshot(page, testInfo, 'confirmation');

  // The email, at the local SMTP server: one message, with every policy number.
  const mail = await mailTo(email);
  expect(mail).toHaveLength(1);
  expect(mail[0].subject).toBe('Welcome to Pawsure Pet Cover: your pet insurance is confirmed');
  expect(mail[0].from).toBe('Pawsure Pet Cover <policies@pawpath.invalid>');
  for (const n of numbers) {
    expect(mail[0].text).toContain(n);
    expect(mail[0].html).toContain(n);
  }
  expect(mail[0].text).toContain('****4958');
  expect(mail[0].text).not.toContain('66374958');
  // owner-payment.md §4 Analytics: a submission per page, transactionDetails and one purchase,
  // with the brand's tracking id and the start date as DD/MM/YYYY.
  type Pushed = { event: string; page?: string; tracking_id?: string; start_date?: string };
  const layer = (await page.evaluate(() => (window as unknown as { dataLayer?: unknown[] }).dataLayer ?? [])) as Pushed[];
  expect(layer.filter((e) => e.event === 'submission').map((e) => e.page)).toEqual(['pet_details', 'user_details', 'review', 'payment', 'confirmation']);
  expect(layer.filter((e) => e.event === 'transactionDetails')).toHaveLength(1);
  expect(layer.filter((e) => e.event === 'purchase')).toHaveLength(1);
  expect(layer.filter((e) => e.event !== 'gtm.js').every((e) => e.tracking_id === 'GTM-POSPAWS')).toBe(true);
  // Accepted: the brand's tag manager is on the page, reading this data layer.
  expect(await page.locator('script#pawpath-tag-manager').getAttribute('src')).toBe('https://www.googletagmanager.com/gtm.js?id=GTM-POSPAWS');
  expect(layer.find((e) => e.event === 'purchase')?.start_date).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
  // A reload of the confirmation asks again; still one email, and no second purchase event.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Pawsome!' })).toBeVisible();
  await outboxDelivered(page);
  expect(await mailTo(email, 2, 0)).toHaveLength(1);
  const again = (await page.evaluate(() => (window as unknown as { dataLayer?: Array<{ event: string }> }).dataLayer ?? [])).map((e) => e.event);
  expect(again).toContain('transactionDetails');
  expect(again).not.toContain('purchase');
  expect(problems()).toEqual([]);
  return mail[0];
}

test('one dog bought by keyboard alone, and the confirmation email arrives', async ({ page }, testInfo) => {
  const email = `one-dog-${testInfo.project.name}-${Date.now()}@example.com`;
  const mail = await buyByKeyboard(page, testInfo, email, [{ name: 'Rex', species: 'Dog', type: 'Pedigree', breed: ['beag', 'Beagle'] }]);
  expect(mail.text).toContain('Rex');
  // Look at the email as a customer would: its HTML part in the browser.
  await page.goto('about:blank'); // away from pawpath's Content-Security-Policy, as a mail program shows it
  await page.setContent(mail.html);
  await screenshot(page, testInfo, 'confirmation-email');
});

test('a dog and a cat bought by keyboard alone, one email for both', async ({ page }, testInfo) => {
  const email = `two-pets-${testInfo.project.name}-${Date.now()}@example.com`;
  const mail = await buyByKeyboard(page, testInfo, email, [
    { name: 'Rex', species: 'Dog', type: 'Pedigree', breed: ['beag', 'Beagle'] },
    { name: 'Tigger', species: 'Cat', type: 'Moggie' },
  ]);
  expect(mail.text).toContain('Rex');
  expect(mail.text).toContain('Tigger');
});
