import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { type Page, expect, test } from '@playwright/test';

import { expectAccessible, screenshot, watchConsole } from './support';

// journey.md §2 Inactivity timeout, §4 Timers, §9: each brand's own times, on Playwright's clock
// (the page's Date and timers), so no test waits out real time. The server keeps its own clock:
// it resets an idle quote on it (server/tests/api), which the pages here never wait for.

// One at a time: the last opens eight browsers at once.
test.describe.configure({ mode: 'serial' });

/**
 * The customer leaves the page alone for `ms`: first the page's last activity is noted (it is
 * written a moment after it happens, on the page's own clock), then the clock jumps.
 */
async function leave(page: Page, ms: number) {
  await page.clock.runFor(1_000);
  await page.clock.fastForward(ms - 1_000);
}

/** The page's own inactivity times, from its view data. */
async function timeouts(page: Page): Promise<{ warning_ms: number; reset_ms: number }> {
  return page.evaluate(async () => (await (await fetch(location.pathname + location.search, { headers: { Accept: 'application/json' } })).json()).data.timeouts);
}

test('the warning counts down, then the reset modal starts a new quote', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.clock.install();
  await page.goto('/quote?brand=pos');
  await page.getByLabel("What is your pet's name?").fill('Rex');
  await page.getByRole('button', { name: 'Next' }).click();
  const firstRef = await page.evaluate(async () => (await (await fetch('/quote', { headers: { Accept: 'application/json' } })).json()).data.qidu);
  const { warning_ms, reset_ms } = await timeouts(page);
  expect([warning_ms, reset_ms]).toEqual([14_280_000, 14_400_000]);

  // The warning, with the spec's sentence and its countdown: information colour, orange at 60 s
  // or less, red at 30 s or less.
  const warning = page.getByRole('dialog', { name: 'Are you still there?' });
  await leave(page, warning_ms + 1_000);
  await expect(warning).toBeVisible();
  await expect(warning).toContainText('After 4 hours of inactivity we will reset your quote, you have 2 minutes before it resets.');
  const timer = warning.getByRole('timer');
  await expect(timer).toHaveClass(/countdown--info/);
  await page.clock.fastForward(60_000);
  await expect(timer).toHaveClass(/countdown--orange/);
  await page.clock.fastForward(30_000);
  await expect(timer).toHaveClass(/countdown--red/);

  // Continue: the warning goes and comes back after the warning time again.
  await warning.getByRole('button', { name: 'Continue my quote' }).click();
  await expect(warning).toHaveCount(0);
  await leave(page, warning_ms - 60_000);
  await expect(warning).toHaveCount(0);
  await page.clock.fastForward(61_000);
  await expect(warning).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'timeout-warning');

  // The reset modal cannot be closed; it starts a new quote.
  const reset = page.getByRole('dialog', { name: 'Your quote has been reset' });
  await page.clock.fastForward(reset_ms - warning_ms);
  await expect(reset).toBeVisible();
  await expect(reset).toContainText("Due to inactivity, we've reset your quote to protect any information");
  await page.keyboard.press('Escape');
  await expect(reset).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'timeout-reset');
  await reset.getByRole('button', { name: 'Start a new quote' }).click();
  await expect(page).toHaveURL(/\/quote\?brand=pos$/);
  await expect(page.getByLabel("What is your pet's name?")).toHaveValue('');
  const secondRef = await page.evaluate(async () => (await (await fetch('/quote', { headers: { Accept: 'application/json' } })).json()).data.qidu);
  expect(secondRef).not.toBe(firstRef);
  expect(problems()).toEqual([]);
});

// A quote with the owner's email is saved, and the reset modal says so, with its
// reference, how to retrieve it, and the way there (owner-payment.md §2 Retrieve quote).
test('the reset modal of a saved quote gives its reference and the way back to it', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.clock.install();
  await page.goto('/quote?brand=pos');
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  // The pets and the owner, saved through the pages' own calls.
  const reference = await page.evaluate(async () => {
    const view = async () => (await (await fetch('/quote', { headers: { Accept: 'application/json' } })).json()).data;
    const post = (url: string, body: unknown) =>
      fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });
    const { csrf, qidu } = await view();
    await post('/api/petdetails?norequote=1', {
      csrf,
      pets: [{ pet_name: 'Rex', pet_type: 'dog', dog_breed_type: 'breed', pet_breed: 'D173', pet_date_of_birth: '2023-02-01', pet_sex: 'm', pet_neutered: 'yes', pet_any_injury_illness: 'no', pet_cost: '0', confirm_assumptions: true }],
    });
    await post('/api/ownerdetail', {
      csrf,
      owner: {
        customer_title: 'Ms', customer_first_name: 'Ada', customer_last_name: 'Lovelace', customer_date_of_birth: '1985-03-27',
        email_address: 'ada@example.com', customer_contact_number: '01632960123', houseNumberName: '12',
        customer_address_line_1: '12 Kings Road', customer_town: 'London', customer_postcode: 'SW1A 1AA',
        marketing_preferences: { optin_email: false, optin_post: false, optin_sms: false, optin_phone: false },
      },
    });
    return qidu as string;
  });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const reset = page.getByRole('dialog', { name: 'Your quote has been reset' });
  await leave(page, (await timeouts(page)).reset_ms + 1_000);
  await expect(reset).toBeVisible();
  await expect(reset).toContainText(
    `Due to inactivity, we've reset your quote to protect any information you gave us. Your quote is saved as ${reference}: to carry on with it, retrieve it with that reference and the email address you gave us, or start a new quote.`,
  );
  await expect(reset.getByRole('button', { name: 'Start a new quote' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'timeout-reset-saved');
  await reset.getByRole('button', { name: 'Retrieve your quote' }).click();
  await expect(page).toHaveURL(new RegExp(`/quote/retrieve-quote\\?brand=pos&reference=${reference}$`));
  await expect(page.getByRole('textbox', { name: 'Quote reference' })).toHaveValue(reference);
  await page.getByRole('textbox', { name: 'Email address' }).fill('ada@example.com');
  await page.getByRole('button', { name: 'Retrieve quote' }).click();
  await expect(page.getByRole('heading', { level: 1, name: /cover/i })).toBeVisible();
  const now = await page.evaluate(async () => (await (await fetch('/quote', { headers: { Accept: 'application/json' } })).json()).data);
  expect(now.qidu).toBe(reference);
  expect(now.pets[0].pet_name).toBe('Rex');
  expect(problems()).toEqual([]);
});

// journey.md §2 Inactivity timeout: the journey is reset, not the brand or the channel.
// Every brand and both of its channels, read from the definitions (a brand added there is tested
// here without a change): the page opened with a tracking token, left until the reset modal,
// "Start a new quote" lands on the same journey and brand with the tracking token's sales number.
type Start = { brand: string; base: string; journey: string; token: string; phone: string };

function starts(): Start[] {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'journeys');
  const journeys = readdirSync(root)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(root, f), 'utf8')))
    .filter((j) => Array.isArray(j.steps) && !j.flow);
  const out: Start[] = [];
  for (const file of readdirSync(join(root, 'brands')).filter((f) => f.endsWith('.json')).sort()) {
    const brand = JSON.parse(readFileSync(join(root, 'brands', file), 'utf8'));
    const [token, phone] = Object.entries(brand.sales_phones.tracking_tokens as Record<string, string>)[0];
    for (const channel of brand.channels as string[]) {
      for (const journey of journeys.filter((j) => j.channel === channel)) {
        out.push({ brand: brand.id, base: journey.base_path, journey: journey.id, token, phone });
      }
    }
  }
  return out;
}

test('every brand and channel starts again on its own brand, journey and tracking token', async ({ browser }, testInfo) => {
  test.skip(testInfo.project.name === 'mobile', 'every brand once, at 1280 px');
  test.setTimeout(120_000);
  const all = starts();
  expect(all.length).toBeGreaterThanOrEqual(16);
  // Eight at a time, each in a browser of its own, on its own clock: the brand's reset time
  // passes at once.
  const batches: Start[][] = [];
  for (let i = 0; i < all.length; i += 8) batches.push(all.slice(i, i + 8));
  for (const batch of batches) await Promise.all(
    batch.map(async (start) => {
      const context = await browser.newContext();
      await context.clock.install();
      const page = await context.newPage();
      const first = `${start.base}?brand=${start.brand}&tracking_token=${start.token}`;
      // The page's own view data, as it loaded (a request of the test's own, sent late on a
      // busy machine, would itself find the quote idle and start a new one).
      const viewed = page.waitForResponse((r) => r.url().includes('/api/view?path='));
      await page.goto(first);
      const before = ((await (await viewed).json()) as { data: { qidu: string; channel: string; timeouts: { reset_ms: number } } }).data;
      await expect(page.getByRole('banner')).toContainText(start.phone);
      const reset = page.locator('dialog[aria-labelledby="reset-title"]');
      await leave(page, before.timeouts.reset_ms + 1_000);
      // Limits on hanging on a busy two-core machine, not measures of speed.
      await expect(reset).toBeVisible({ timeout: 30_000 });
      // The page the reset goes to, by its own view data (the address may already read the same).
      const next = page.waitForResponse((r) => r.url().includes('/api/view?path='), { timeout: 30_000 });
      await reset.getByRole('button').click();
      const after = ((await (await next).json()) as { data: { qidu: string; brand: string; journey: string; channel: string } }).data;
      await expect(page).toHaveURL(new RegExp(`${start.base}\\?brand=${start.brand}&tracking_token=${start.token}$`), { timeout: 30_000 });
      await expect(page.getByRole('banner')).toContainText(start.phone);
      expect([after.brand, after.journey, after.channel], `${start.brand} ${start.journey}`).toEqual([start.brand, start.journey, before.channel]);
      expect(after.qidu).not.toBe(before.qidu);
      await context.close();
    }),
  );
});
