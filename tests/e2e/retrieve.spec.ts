import { expect, test } from '@playwright/test';

import { expectAccessible, screenshot, watchConsole } from './support';
import { fillYourDetails } from './support-owner';
import { describeRexAndGoOn } from './support-pets';

// owner-payment.md §2 Retrieve quote: a quote saved in one browser, retrieved in another by
// reference and email; a wrong detail gets one message whichever was wrong.

test('a quote retrieved in another browser opens where it was left', async ({ page, browser }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote');
  await describeRexAndGoOn(page);
  await fillYourDetails(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  const reference = (await page.locator('.quote-facts dd').first().textContent()) ?? '';

  // Another browser: no cookies of the first.
  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const second = await other.newPage();
  await second.goto('/quote/retrieve-quote');
  await expect(second.getByRole('heading', { level: 1, name: 'Retrieve your quote' })).toBeVisible();
  await expect(second.getByRole('navigation', { name: /progress/i })).toHaveCount(0);
  await expectAccessible(second);
  await second.getByLabel('Quote reference').fill(reference);
  await second.getByLabel('Email address').fill('someone@example.com');
  await second.getByRole('button', { name: 'Retrieve quote' }).click();
  await expect(second.getByText('We could not find a quote with that reference and email address. Please check them and try again.').first()).toBeVisible();
  await screenshot(second, testInfo, 'retrieve-refused');
  await second.getByLabel('Email address').fill('ada@example.com');
  await second.getByRole('button', { name: 'Retrieve quote' }).click();
  await expect(second).toHaveURL(/\/quote\/choose-policy$/);
  await expect(second.getByRole('heading', { name: "Choose Rex's cover" })).toBeVisible();
  await expect(second.locator('.quote-facts dd').first()).toHaveText(reference);
  await other.close();
  expect(problems()).toEqual([]);
});

test('an expired quote comes back as a new quote starting today, with the spec message', async ({ page, browser }, testInfo) => {
  // journey.md §4 Policy start date, §8 Quote expired; owner-payment.md §4 Session: "A quote
  // retrieved after expiry yields a new quote with start date set to today."
  const problems = watchConsole(page);
  await page.goto('/quote');
  await describeRexAndGoOn(page);
  await fillYourDetails(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  const reference = (await page.locator('.quote-facts dd').first().textContent()) ?? '';
  // Test mode: the quote was made 32 days ago, past its 30 days whatever the hour (31 days back
  // from late evening in winter is the next UK day in summer time, still valid today).
  const view = await page.request.get('/quote/choose-policy', { headers: { Accept: 'application/json' } });
  const csrf = (await view.json()).data.csrf as string;
  expect((await page.request.post('/api/test/patch', { data: { csrf, quote_age_days: 32 } })).status()).toBe(200);

  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const second = await other.newPage();
  await second.goto('/quote/retrieve-quote');
  await second.getByLabel('Quote reference').fill(reference);
  await second.getByLabel('Email address').fill('ada@example.com');
  await second.getByRole('button', { name: 'Retrieve quote' }).click();
  await expect(
    second.getByText('The quote reference you have provided has expired. Please see below for a new quote, the start date has been changed to today.').first(),
  ).toBeVisible();
  await expect(second.getByRole('heading', { name: "Choose Rex's cover" })).toBeVisible();
  // A new quote: a new reference, the same answers.
  await expect(second.locator('.quote-facts dd').first()).not.toHaveText(reference);
  await expectAccessible(second);
  await screenshot(second, testInfo, 'retrieve-expired');
  await other.close();
  expect(problems()).toEqual([]);
});

test('a bought quote is only said to be bought: another browser sees nothing of it', async ({ page, browser }, testInfo) => {
  // A bought quote is never attached to a new browser; retrieving it says it has been
  // bought and where its documents went, and shows no personal data.
  const problems = watchConsole(page);
  await page.goto('/quote');
  // The page's own first call makes the quote and its session cookie: the calls below wait for it.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const call = async (path: string, data: Record<string, unknown>) => {
    const view = await page.request.get('/quote', { headers: { Accept: 'application/json' } });
    const csrf = (await view.json()).data.csrf as string;
    const answer = await page.request.post(path, { data: { ...data, csrf } });
    expect(answer.status(), `${path}: ${await answer.text()}`).toBe(200);
    return answer.json();
  };
  // The purchase is the setting, not what is tested: made through the pages' own calls.
  await call('/api/petdetails', {
    pets: [{ pet_name: 'Rex', pet_type: 'dog', dog_breed_type: 'breed', pet_breed: 'D173', pet_date_of_birth: '2023-04-01', pet_sex: 'm', pet_neutered: 'yes', pet_any_injury_illness: 'no', pet_cost: '450.00', confirm_assumptions: true }],
  });
  await call('/api/ownerdetail', {
    owner: {
      customer_title: 'Ms', customer_first_name: 'Ada', customer_last_name: "O'Neill-Smith", customer_date_of_birth: '1985-03-27',
      email_address: 'ada@example.com', customer_contact_number: '01632960123', houseNumberName: '12',
      customer_address_line_1: '12 Kings Road', customer_town: 'London', customer_postcode: 'SW1A 1AA',
      marketing_preferences: { optin_email: false, optin_post: false, optin_sms: false, optin_phone: false },
    },
  });
  await call('/api/saveCover', { pets: [{ product: { Code: 'LT04000' } }] });
  await call('/api/saveDeclaration', {
    pets: [
      {
        idd: 'yes', is_working_dog: 'no', dog_behaviour: 'no', licensed_premises: 'no', rescue_home: 'no', pet_reside_same_address: 'yes', pet_endemic_pandemic: 'no',
        pet_any_injury_illness: 'no', pet_neutered: 'yes', pet_sex: 'm', pet_microchipped: 'yes', confirm_assumptions: true, assumptions_correct: true,
      },
    ],
  });
  await call('/api/setup-payment', {
    payment: { payment_method: 'DD', payment_frequency: 'MP', account_name: "Ada O'Neill", sort_code: '08-99-99', account_number: '66374958', payment_day: 15, dd_confirmation: true },
  });
  const bought = await call('/api/purchase', { idempotency_key: 'e2e-bought-0001' });
  const reference = bought.data.qidu as string;
  expect(reference).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);

  const other = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const second = await other.newPage();
  await second.goto('/quote/retrieve-quote');
  await second.getByLabel('Quote reference').fill(reference);
  await second.getByLabel('Email address').fill('ada@example.com');
  await second.getByLabel('Email address').press('Enter');
  const said = second.getByRole('status').filter({ hasText: 'This quote has already been bought.' });
  await expect(said).toHaveText(
    'This quote has already been bought. We sent the policy documents by email to the address given when it was bought. If you need help with the policy, please call us.',
  );
  await expect(said).toBeFocused();
  await expect(second).toHaveURL(/\/quote\/retrieve-quote$/);
  const shown = await second.locator('main').innerText();
  for (const personal of ['Rex', "O'Neill", 'ada@example.com', '4958', '08-99-99']) expect(shown).not.toContain(personal);
  await expectAccessible(second);
  await screenshot(second, testInfo, 'retrieve-bought');
  await other.close();

  // The buyer's own browser still has the confirmation, with the portal password offered.
  await page.goto('/quote/confirmation');
  await expect(page.getByRole('heading', { name: 'Set up your pet portal' })).toBeVisible();
  expect(problems()).toEqual([]);
});
