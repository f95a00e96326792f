import { type FrameLocator, type Locator, type Page, expect, test } from '@playwright/test';

import { expectAccessible, mailTo, screenshot, watchConsole } from './support';
import { chooseRadio, press, typeInto } from './support-keys';
import { toPaymentByKeyboard } from './support-journey';

// Cards through a real provider's API (Stripe's PaymentIntents, here the local fake
// tests/fake-stripe.mjs that playwright.config.ts starts), with strong customer authentication
// (3-D Secure). The card's number, expiry and security code are typed into the provider's own
// fields, in a frame of the provider's; the customer's bank's challenge is passed or failed, and
// the journey carries on from where they come back (owner-payment.md §2 /creditcard-confirmation).
// epw takes cards (journeys/brands/epw.json).

const stripeServer = `http://127.0.0.1:${Number(process.env.PAWPATH_E2E_PORT ?? 18181) + 2}`;
test.use({ baseURL: stripeServer });

const DECLINED = 'Your card payment was declined. Please check your card details or use another card.';

/** Whether the control inside the provider's frame has the keyboard's focus. */
async function focusedInFrame(target: Locator): Promise<boolean> {
  return target.evaluate((el) => el === document.activeElement && document.hasFocus()).catch(() => false);
}

/** Tabs into the provider's card fields and types the card, as a keyboard user does. */
async function cardInProviderFields(page: Page, frame: FrameLocator, number: string) {
  const field = frame.getByLabel('Card number');
  await expect(field).toBeVisible();
  for (let i = 0; i < 80 && !(await focusedInFrame(field)); i++) await page.keyboard.press('Tab');
  expect(await focusedInFrame(field), 'the card number is reached with Tab').toBe(true);
  await page.keyboard.type(number);
  await page.keyboard.press('Tab');
  await page.keyboard.type('12/30');
  await page.keyboard.press('Tab');
  await page.keyboard.type('737');
}

async function toCardPayment(page: Page, email: string) {
  await toPaymentByKeyboard(page, 'epw', email);
}

/** The card given on the payment page: the provider's fields, then the name on the card. */
async function giveCard(page: Page, number: string) {
  const frame = page.frameLocator('iframe[title="Secure card payment input frame"]');
  await expect(page.getByRole('region', { name: 'Card details' })).toBeVisible();
  await cardInProviderFields(page, frame, number);
  const name = page.getByLabel('Name on card');
  await typeInto(page, name, 'Ada Lovelace');
  // pawpath's own card fields are gone: the provider's frame holds them.
  await expect(page.getByLabel('Card number', { exact: true })).toHaveCount(0);
  return frame;
}

test('a card the bank challenges is paid once the customer passes its 3-D Secure check', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  const email = `card-3ds-passed-${testInfo.project.name}-${Date.now()}@example.com`;
  const apiBodies: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(stripeServer)) apiBodies.push(`${r.url()} ${r.postData() ?? ''}`);
  });
  await toCardPayment(page, email);
  await giveCard(page, '4000002760003184');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'card-provider-fields');
  await press(page, page.getByRole('button', { name: 'Confirm payment' }));

  await expect(page).toHaveURL(/\/quote\/creditcard-confirmation$/);
  const card = page.getByRole('region', { name: 'Your card' });
  await expect(card).toContainText('Visa ending 3184');
  await expect(card).toContainText('Ada Lovelace');
  await press(page, page.getByRole('button', { name: 'Pay now' }));

  // The bank's challenge (the provider's page), passed by keyboard.
  await expect(page.getByRole('heading', { name: 'Test card authentication' })).toBeVisible();
  await screenshot(page, testInfo, 'card-3ds-challenge');
  await press(page, page.getByRole('button', { name: 'Complete authentication' }));

  // A page of its own, opened afresh on coming back from the bank.
  await expect(page).toHaveURL(/\/quote\/success$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your purchase' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your card payment' })).toContainText('Visa ending 3184');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'card-3ds-bought');
  const mail = await mailTo(email);
  expect(mail).toHaveLength(1);
  expect(mail[0].text).toContain('from your Visa card ending 3184');
  // The card number went to the provider only, never to pawpath.
  expect(apiBodies.join('\n')).not.toContain('3184');
  expect(problems()).toEqual([]);
});

test('a failed 3-D Secure check buys nothing, says so, and another card pays', async ({ page }, testInfo) => {
  const email = `card-3ds-failed-${testInfo.project.name}-${Date.now()}@example.com`;
  await toCardPayment(page, email);
  await giveCard(page, '4000002760003184');
  await press(page, page.getByRole('button', { name: 'Confirm payment' }));
  await expect(page).toHaveURL(/\/quote\/creditcard-confirmation$/);
  await press(page, page.getByRole('button', { name: 'Pay now' }));
  await expect(page.getByRole('heading', { name: 'Test card authentication' })).toBeVisible();
  await press(page, page.getByRole('button', { name: 'Fail authentication' }));

  // Back where they bought from, told in the spec's words; nothing bought, no email.
  await expect(page).toHaveURL(/\/quote\/creditcard-confirmation$/);
  const alert = page.getByRole('alert').filter({ hasText: 'Payment declined' });
  await expect(alert).toContainText(DECLINED);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'card-3ds-failed');
  expect(await mailTo(email, 0)).toHaveLength(0);

  // Another card: back to the payment page, and this one is taken at once.
  await press(page, page.getByRole('link', { name: /Change card/i }));
  await expect(page).toHaveURL(/\/quote\/payment$/);
  await chooseRadio(page, page.getByRole('group', { name: 'How would you like to pay?' }), 'Debit or credit card');
  await giveCard(page, '4242424242424242');
  await press(page, page.getByRole('button', { name: 'Confirm payment' }));
  await expect(page.getByRole('region', { name: 'Your card' })).toContainText('Visa ending 4242');
  await press(page, page.getByRole('button', { name: 'Pay now' }));
  await expect(page).toHaveURL(/\/quote\/success$/);
  await expect(page.getByRole('region', { name: 'Your card payment' })).toContainText('Visa ending 4242');
  expect(await mailTo(email)).toHaveLength(1);
});
