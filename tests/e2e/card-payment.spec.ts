import { expect, test } from '@playwright/test';

import { expectAccessible, mailTo, screenshot, watchConsole } from './support';
import { chooseRadio, press, tabTo, typeInto } from './support-keys';
import { toPaymentByKeyboard } from './support-journey';

// Card payment where a brand turns it on (owner-payment.md §1 "Direct Debit, or card
// where offered", §2 Payment page card form and /creditcard-confirmation, §5 Payment card rules).
// The brand epw (journeys/brands/epw.json) takes cards; the card goes to the local test payment
// provider, never to pawpath's API.

test('a card payer on a brand that takes cards buys by keyboard alone', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  const email = `card-${testInfo.project.name}-${Date.now()}@example.com`;
  const apiBodies: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) apiBodies.push(r.postData() ?? '');
  });
  // The payment page offers both ways to pay; choose card.
  await toPaymentByKeyboard(page, 'epw', email);
  await expect(page.getByRole('list', { name: 'We accept' })).toContainText('Visa');
  const number = page.getByLabel('Card number');
  await typeInto(page, page.getByLabel('Name on card'), "Ada O'Neill");
  // The provider's checks come back as field errors with the spec's messages.
  await typeInto(page, number, '4111111111111112'); // grouped as typed; fails the Luhn check
  await expect(number).toHaveValue('4111 1111 1111 1112');
  await typeInto(page, page.getByLabel('Expiry date'), '1230');
  await expect(page.getByLabel('Expiry date')).toHaveValue('12/30');
  await typeInto(page, page.getByLabel('Security code (CVC)'), '12');
  await press(page, page.getByRole('button', { name: 'Confirm payment' }));
  await expect(page.getByText('Please enter a valid CVC').first()).toBeVisible();
  await tabTo(page, page.getByLabel('Security code (CVC)'));
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('737');
  await press(page, page.getByRole('button', { name: 'Confirm payment' }));
  await expect(page.getByText('Please enter a valid card number').first()).toBeVisible();
  await tabTo(page, number);
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('4111111111111111');
  await expect(number).toHaveValue('4111 1111 1111 1111');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'card-payment');
  await press(page, page.getByRole('button', { name: 'Confirm payment' }));

  // The card confirmation, then Pay now.
  await expect(page).toHaveURL(/\/quote\/creditcard-confirmation$/);
  const card = page.getByRole('region', { name: 'Your card' });
  await expect(card).toContainText('Visa ending 1111');
  await expect(card).toContainText("Ada O'Neill");
  // The button that buys says so, with what it takes, to whoever reads its description.
  const taken = (await card.locator('.summary__row').filter({ hasText: 'Taken today' }).locator('dd').textContent()) ?? '';
  expect(taken).toMatch(/^£\d+\.\d\d$/);
  await expect(page.getByRole('button', { name: 'Pay now' })).toHaveAccessibleDescription(
    new RegExp(`^Pay now buys your policy, with cover from \\d\\d/\\d\\d/\\d{4}, and takes ${taken.replace('.', '\\.')} from your card today\\.$`),
  );
  await expectAccessible(page);
  await screenshot(page, testInfo, 'card-confirmation');
  await press(page, page.getByRole('button', { name: 'Pay now' }));

  // journey.md §2: epw's confirmation is /success (step 5); its heading is the brand's own
  // (only pos says "Pawsome!").
  await expect(page).toHaveURL(/\/quote\/success$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Thank you for your purchase' })).toBeFocused();
  const payment = page.getByRole('region', { name: 'Your card payment' });
  await expect(payment).toContainText('Visa ending 1111');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'card-bought');

  const mail = await mailTo(email);
  expect(mail).toHaveLength(1);
  expect(mail[0].text).toContain('from your Visa card ending 1111');
  // The card number never went to pawpath's API.
  expect(apiBodies.join('\n')).not.toContain('4111');
  // The card the provider refused above (the Luhn check) answered 422 with their field errors, as designed; nothing else.
  expect(problems().filter((p) => !p.includes('status of 422'))).toEqual([]);
  expect(problems()).toHaveLength(1);
});

test('a brand that does not take cards offers Direct Debit only', async ({ page }) => {
  await page.goto('/quote?brand=pos');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const view = await page.evaluate(async () => {
    const r = await fetch('/quote', { headers: { Accept: 'application/json' } });
    return ((await r.json()) as { data: { brand: string } }).data.brand;
  });
  expect(view).toBe('pos');
});

// owner-payment.md §2 /creditcard-confirmation: a card the provider declines is said on the
// page, in the spec's words, and the customer goes back to use another card; nothing is bought
// and no email is sent until a card is taken.
test('a declined card is said on the page and another card buys the cover', async ({ page }, testInfo) => {
  const email = `declined-${Date.now()}@example.com`;
  await toPaymentByKeyboard(page, 'epw', email, false);
  const card = async (number: string) => {
    await chooseRadio(page, page.getByRole('group', { name: 'How would you like to pay?' }), 'Debit or credit card');
    await typeInto(page, page.getByLabel('Name on card'), 'Ada Lovelace');
    await tabTo(page, page.getByLabel('Card number'));
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type(number);
    await typeInto(page, page.getByLabel('Expiry date'), '1230');
    await typeInto(page, page.getByLabel('Security code (CVC)'), '737');
    await press(page, page.getByRole('button', { name: 'Confirm payment' }));
    await expect(page).toHaveURL(/\/quote\/creditcard-confirmation$/);
  };
  // The provider's test card that is always declined.
  await card('4000000000000002');
  await press(page, page.getByRole('button', { name: 'Pay now' }));
  const alert = page.getByRole('alert').filter({ hasText: 'Payment declined' });
  await expect(alert).toContainText(
    'Your card payment was declined. Please check your card details or use another card.',
  );
  await expect(page).toHaveURL(/\/quote\/creditcard-confirmation$/);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'card-declined');
  expect(await mailTo(email, 0)).toHaveLength(0);

  // Back to the payment page for another card, which is taken.
  await press(page, page.getByRole('link', { name: /change/i }));
  await expect(page).toHaveURL(/\/quote\/payment$/);
  await card('4111111111111111');
  await press(page, page.getByRole('button', { name: 'Pay now' }));
  await expect(page).toHaveURL(/\/quote\/success$/);
  expect(await mailTo(email)).toHaveLength(1);
});
