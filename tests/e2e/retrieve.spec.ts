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
