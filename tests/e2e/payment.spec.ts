import { expect, type Page, test } from '@playwright/test';

import { expectAccessible, screenshot, watchConsole } from './support';
import { chooseLifetimeForEveryPet } from './support-cover';
import { fillYourDetails } from './support-owner';
import { describeRexAndGoOn } from './support-pets';

// owner-payment.md §2 Payment page and Bank details panel, §4 Bank validation and Direct Debit
// date, §5 Payment, in a browser: the Direct Debit form by keyboard, the bank check's toast, the
// Guarantee, the payment-date notice, the bank details panel.

async function oneDogToPayment(page: Page) {
  await page.goto('/quote');
  await describeRexAndGoOn(page);
  await fillYourDetails(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await chooseLifetimeForEveryPet(page, ['Rex']);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/quote\/assumptions$/);
  await page.getByRole('checkbox', { name: /Yes, they're correct/ }).check();
  await page.getByRole('button', { name: 'Go to payment' }).click();
  await expect(page).toHaveURL(/\/quote\/payment$/);
}

test('the Direct Debit form by keyboard, a refused account, then the bank details panel', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await oneDogToPayment(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Monthly' })).toBeChecked();
  await expectAccessible(page);

  // Keyboard: the account holder, the sort code boxes that move on, the account number.
  await page.getByLabel('Account holder name').focus();
  await page.keyboard.type('Ada ONeill');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Sort code digits 1 of 3')).toBeFocused();
  await page.keyboard.type('203099'); // a sort code and account Vocalink's checks refuse
  await expect(page.getByLabel('Sort code digits 3 of 3')).toHaveValue('99');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Account number')).toBeFocused();
  await page.keyboard.type('66831036');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Preferred collection day')).toBeFocused();
  await page.getByLabel('Preferred collection day').selectOption('15');
  // The payment-date notice follows the day (owner-payment.md §4 Direct Debit date).
  await expect(page.getByRole('status').filter({ hasText: 'on or shortly after the 15th' })).toBeVisible();

  // Keeping in touch and policy communications (owner-payment.md §2 Payment page, §4): the
  // change is saved at once with its toast, and what was typed above stays. Marketing
  // preferences were asked on your details and are not asked again here.
  const keeping = page.getByRole('region', { name: 'Keeping in touch' });
  await keeping.getByRole('radio', { name: 'By post' }).check();
  // owner-payment.md §8 Updates, word for word.
  await expect(page.getByRole('status').filter({ hasText: 'Policy communications updated: Your preferences have been updated' })).toBeVisible();
  await expect(keeping.getByRole('checkbox')).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'Email', exact: true })).toHaveCount(0);
  await expect(page.getByLabel('Account holder name')).toHaveValue('Ada ONeill');
  await expectAccessible(page);

  // Yearly: the summary and the notice follow the choice; back to monthly after.
  const summary = page.locator('summary', { hasText: 'Your quote' });
  await expect(summary).toContainText('per month');
  await page.getByRole('radio', { name: 'Yearly' }).check();
  await expect(summary).toContainText('per year');
  await expect(summary).not.toContainText('per month');
  await expect(page.getByRole('status').filter({ hasText: /^Your payment of £[\d,]+\.\d{2} will be taken on or shortly after \d{2}\/\d{2}\/\d{4}\.$/ })).toBeVisible();
  await page.getByRole('radio', { name: 'Monthly' }).check();
  await expect(summary).toContainText('per month');

  // Without the authority tick: the spec's message, focus on the tick.
  await page.getByRole('button', { name: 'Confirm payment' }).click();
  await expect(page.getByText('You must check the box above to confirm authority to create this Direct Debit agreement.').first()).toBeVisible();
  await page.getByRole('checkbox', { name: /I confirm authority to create this Direct Debit agreement/ }).check();

  // The bank check refuses the details: the error toast, and nothing is saved.
  await page.getByRole('button', { name: 'Confirm payment' }).click();
  await expect(page.getByText("Bank details incorrect: You've entered an invalid bank account number and/or sort code. Please check and try again.")).toBeVisible();
  await expect(page).toHaveURL(/\/quote\/payment$/);
  await screenshot(page, testInfo, 'payment-refused');

  // The Direct Debit Guarantee names the brand as originator.
  await page.getByRole('button', { name: 'The Direct Debit Guarantee' }).click();
  const guarantee = page.getByRole('dialog', { name: 'The Direct Debit Guarantee' });
  await expect(guarantee).toContainText('Pawsure Pet Cover will notify you 10 working days in advance');
  await expectAccessible(page);
  await page.keyboard.press('Escape');

  // Good details.
  for (const [i, part] of ['08', '99', '99'].entries()) await page.getByLabel(`Sort code digits ${i + 1} of 3`).fill(part);
  await page.getByLabel('Account number').fill('66374958');
  await screenshot(page, testInfo, 'payment');
  await page.getByRole('button', { name: 'Confirm payment' }).click();

  // The bank details panel: the whole account number, here only.
  await expect(page).toHaveURL(/\/quote\/payment-confirmation$/);
  const panel = page.getByRole('region', { name: 'Your bank details' });
  await expect(panel).toContainText('66374958');
  await expect(panel).toContainText('08-99-99');
  await expect(panel).toContainText('Ada ONeill');
  // The bank's name and branch address from the sort code (server/data/bank-branches.json).
  await expect(panel).toContainText('Meridian Mutual Bank');
  await expect(panel).toContainText('Meridian House, 4 Cotton Exchange, Manchester, M1 9ZZ');
  await expect(panel.getByRole('button', { name: 'Print' })).toBeVisible();
  // What Continue commits to, beside it: the policy, the Direct Debit and the first
  // collection on the day chosen (the 15th).
  const commit = page.getByRole('region', { name: 'What happens when you continue' });
  await expect(commit).toContainText(/^What happens when you continueContinue buys your policy, with cover from \d{2}\/\d{2}\/\d{4}, and sets up your Direct Debit to Pawsure Pet Cover\./);
  await expect(commit).toContainText(/first (payment|collection) of £[\d,]+\.\d{2}.* will be taken on or shortly after \d{2}\/\d{2}\/\d{4}, then £[\d,]+\.\d{2} each month on or shortly after the 15th\./);
  await expect(page.getByRole('button', { name: 'Continue', exact: true })).toHaveAccessibleDescription(/Continue buys your policy.*the 15th\./);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'payment-confirmation');

  // Edit goes back to the form, which never holds the account number again.
  await panel.getByRole('link', { name: 'Edit bank details' }).click();
  await expect(page).toHaveURL(/\/quote\/payment$/);
  await expect(page.getByLabel('Account number')).toHaveValue('');
  await expect(page.getByLabel('Account holder name')).toHaveValue('Ada ONeill');

  // Buy, with a double click: one purchase, and the confirmation page.
  await page.getByLabel('Account number').fill('66374958');
  await page.getByRole('button', { name: 'Confirm payment' }).click();
  await expect(page).toHaveURL(/\/quote\/payment-confirmation$/);
  const purchases: number[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/api/purchase')) purchases.push(r.status());
  });
  await page.getByRole('button', { name: 'Continue' }).dblclick();
  await expect(page).toHaveURL(/\/quote\/confirmation$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Pawsome!' })).toBeFocused();
  // One pet is "your pet", not "your pets", and the page says where the email went.
  await expect(page.getByRole('heading', { name: 'Welcome to Pawsure Pet Cover: your pet is covered' })).toBeVisible();
  await expect(page.getByText("We've emailed your policy documents to ada@example.com.")).toBeVisible();
  const rex = page.getByRole('region', { name: 'Rex' });
  await expect(rex).toContainText(/PETPS\d{7}/);
  await expect(page.getByRole('region', { name: 'Your Direct Debit' })).toContainText('****4958');
  expect(purchases.every((s) => s === 200)).toBe(true);
  // The pet portal password (owner-payment.md §5): the live checklist, the spec's messages.
  const portal = page.getByRole('region', { name: 'Set up your pet portal' });
  await portal.getByLabel('Create a password').fill('abc');
  await expect(portal.getByRole('listitem').filter({ hasText: 'A lowercase letter' })).toHaveClass(/checklist__ok/);
  await expect(portal.getByRole('listitem').filter({ hasText: 'A capital letter' })).not.toHaveClass(/checklist__ok/);
  await portal.getByRole('button', { name: 'Create password' }).click();
  await expect(portal.getByText('Password is too short - Minimum 8 characters').first()).toBeVisible();
  await expect(portal.getByLabel('Create a password')).toBeFocused();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'confirmation');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('Biscuit1!');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Biscuit1!');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Your pet portal password has been set.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Set up your pet portal' })).toHaveCount(0);
  // owner-payment.md §1: once bought, the marketing and communication preferences can still be
  // set, each saved at once with its toast (§8 Updates), by keyboard alone.
  const kept = page.getByRole('region', { name: 'Keeping in touch' });
  await kept.getByRole('checkbox', { name: 'Text message' }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('status').filter({ hasText: 'Your marketing preferences have been saved.' })).toBeVisible();
  // By post, as chosen on the payment page; now online.
  await expect(kept.getByRole('radio', { name: 'By post' })).toBeChecked();
  await kept.getByRole('radio', { name: /^Online/ }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('status').filter({ hasText: 'Policy communications updated: Your preferences have been updated' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'confirmation-preferences');
  await page.reload();
  await expect(page.getByRole('region', { name: 'Keeping in touch' }).getByRole('checkbox', { name: 'Text message' })).toBeChecked();
  await expect(page.getByRole('region', { name: 'Keeping in touch' }).getByRole('radio', { name: /^Online/ })).toBeChecked();
  // Any page of a bought quote shows its confirmation.
  await page.goto('/quote/review');
  await expect(page).toHaveURL(/\/quote\/confirmation$/);
  await expect(page.getByRole('region', { name: 'Rex' })).toContainText(/PETPS\d{7}/);
  expect(problems()).toEqual([]);
});

// A policyholder who may be on the UK sanctions list (OFSI's consolidated list; the
// fictional entry Ostap QUANDRELL, born 12/03/1971, in server/data/sanctions/ConList.csv) is
// asked to call, with the brand's number and never the reason, and nothing is bought.
test('a possible sanctions match is asked to call, and nothing is bought', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await oneDogToPayment(page);
  for (const [i, part] of ['08', '99', '99'].entries()) await page.getByLabel(`Sort code digits ${i + 1} of 3`).fill(part);
  await page.getByLabel('Account holder name').fill('Ostap Quandrell');
  await page.getByLabel('Account number').fill('66374958');
  await page.getByLabel('Preferred collection day').selectOption('15');
  await page.getByRole('checkbox', { name: /I confirm authority to create this Direct Debit agreement/ }).check();
  await page.getByRole('button', { name: 'Confirm payment' }).click();
  await expect(page).toHaveURL(/\/quote\/payment-confirmation$/);
  // The policyholder's name and date of birth as the list has them (test mode's test-data call).
  const view = await page.request.get('/quote/payment-confirmation', { headers: { Accept: 'application/json' } });
  const csrf = (await view.json()).data.csrf as string;
  const patched = await page.request.post('/api/test/patch', {
    data: { csrf, owner: { customer_first_name: 'Ostap', customer_last_name: 'Quandrell', customer_date_of_birth: '1971-03-12' } },
  });
  expect(patched.status()).toBe(200);
  await page.reload();
  await page.getByRole('button', { name: 'Continue' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText('We need to speak to you before we can complete your purchase. Please call us on 0808 157 0000: your quote is saved.');
  await expect(page).toHaveURL(/\/quote\/payment-confirmation$/);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'screening-referral');
  // Nothing bought: the confirmation is not there to see.
  const confirmation = await page.request.get('/api/confirmation');
  expect(confirmation.status()).toBe(404);
  // The purchase's refusal (422) is the one failed request the browser reports.
  expect(problems().filter((p) => !p.includes('status of 422'))).toEqual([]);
});
