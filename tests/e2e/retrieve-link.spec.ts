import { expect, request, test } from '@playwright/test';

import { expectAccessible, mailTo, screenshot, watchConsole } from './support';
import { fillYourDetails } from './support-owner';
import { describeRexAndGoOn } from './support-pets';

// journey.md §8 Retrieve quote, with no lockouts: someone guessing at a quote's reference spends
// its tries, and its owner still opens the quote, by the one-time link emailed to the address on
// it; the link works once.

test('guessing at a reference never keeps its owner out: the emailed link opens the quote once', async ({ page, browser, baseURL }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote');
  await describeRexAndGoOn(page);
  await fillYourDetails(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  const reference = ((await page.locator('.quote-facts dd').first().textContent()) ?? '').trim();

  // Someone guesses at the reference from ten fresh sessions.
  for (let i = 0; i < 10; i++) {
    const guesser = await request.newContext({ baseURL });
    const view = await guesser.get('/quote/retrieve-quote', { headers: { Accept: 'application/json' } });
    const csrf = (await view.json()).data.csrf as string;
    const tried = await guesser.post('/api/quoteretrieval', { data: { csrf, quote_reference: reference, email: `guess${i}@example.com` } });
    expect([422, 429]).toContain(tried.status());
    await guesser.dispose();
  }

  // The owner, in a browser of their own, is told the reference is resting and offered a link.
  const owned = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const owner = await owned.newPage();
  const ownerProblems = watchConsole(owner);
  await owner.goto('/quote/retrieve-quote');
  await owner.getByLabel('Quote reference').fill(reference);
  await owner.getByLabel('Email address').fill('ada@example.com');
  await owner.getByRole('button', { name: 'Retrieve quote' }).click();
  const offer = owner.getByRole('button', { name: 'Email me a link to my quote' });
  await expect(offer).toBeVisible();
  await expect(owner.getByText('If this is your quote, we can email a link to the address on it instead.', { exact: false })).toBeVisible();
  await expectAccessible(owner);
  await screenshot(owner, testInfo, 'retrieve-link-offer');
  // By keyboard: the offer's button takes focus and Enter asks for the link.
  await offer.focus();
  await owner.keyboard.press('Enter');
  const sent = owner.getByRole('status').filter({ hasText: "we've emailed a link to the address on the quote" });
  await expect(sent).toBeVisible();
  await expect(sent).toBeFocused();
  await expectAccessible(owner);
  await screenshot(owner, testInfo, 'retrieve-link-sent');

  // The email, to the address on the quote, with a link that opens it.
  const mails = (await mailTo('ada@example.com', 1)).filter((m) => m.subject.includes(reference));
  expect(mails.length).toBe(1);
  expect(mails[0].subject).toContain('Open your');
  const link = /\/retrieve\/continue\/\S+/.exec(mails[0].text)?.[0] ?? '';
  expect(link).not.toBe('');
  await owner.goto(link);
  await expect(owner).toHaveURL(/\/quote\/choose-policy$/);
  await expect(owner.getByRole('heading', { name: "Choose Rex's cover" })).toBeVisible();
  await expect(owner.locator('.quote-facts dd').first()).toHaveText(reference);
  await expectAccessible(owner);

  // Once only: the same link again goes to retrieve-quote, which says why.
  const later = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const again = await later.newPage();
  await again.goto(link);
  await expect(again).toHaveURL(/\/quote\/retrieve-quote\?.*link=invalid/);
  await expect(again.getByText('That link has expired or has already been used.', { exact: false })).toBeVisible();
  await expectAccessible(again);
  await screenshot(again, testInfo, 'retrieve-link-used');
  await later.close();
  await owned.close();
  // The retrieval the reference's rest refused (429) is the one resource the browser reports.
  expect(ownerProblems().filter((p) => !p.includes('status of 429'))).toEqual([]);
  expect(problems()).toEqual([]);
});
