import { expect, test } from '@playwright/test';

import { adminToken } from '../admin-token';
import { expectAccessible, screenshot } from './support';
import { press } from './support-keys';
import { describeRexAndGoOn } from './support-pets';

// The analysts' internal funnel page, behind the admin token (HTTP Basic), per brand
// and channel; usable by keyboard and axe-clean like every page.

test('the internal funnel page asks for the admin token and shows each brand and channel', async ({ browser, page }, testInfo) => {
  // Some quotes to count: a pet page answered, and one left empty.
  await page.goto('/quote?brand=pos');
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();

  const stranger = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const refused = await stranger.request.get('/internal/funnel');
  expect(refused.status()).toBe(401);
  expect(refused.headers()['www-authenticate']).toContain('Basic');
  await stranger.close();

  const staff = await browser.newContext({ baseURL: testInfo.project.use.baseURL, httpCredentials: { username: 'staff', password: adminToken } });
  const internal = await staff.newPage();
  await internal.goto('/internal/funnel?journey=direct');
  await expect(internal.getByRole('heading', { level: 1, name: 'Funnel: the direct journey' })).toBeVisible();
  await expect(internal.getByRole('heading', { level: 2, name: 'Pawsure Pet Cover (pos), direct' })).toBeVisible();
  await expect(internal.getByRole('img', { name: 'Pawsure Pet Cover, direct: direct' })).toBeVisible();
  await expectAccessible(internal);
  // The journey chooser by keyboard.
  await internal.getByLabel('Journey').focus();
  await internal.keyboard.type('rehoming');
  await press(internal, internal.getByRole('button', { name: 'Show' }));
  await expect(internal).toHaveURL(/journey=rehoming/);
  await expect(internal.getByRole('heading', { level: 2, name: /Rescue Steps Pets \(rsp\), direct/ })).toBeVisible();
  await expectAccessible(internal);
  await internal.goto('/internal/funnel?journey=direct');
  await screenshot(internal, testInfo, 'internal-funnel');
  await staff.close();
});

// A quote replayed as its customer saw it, for a complaints handler, behind the admin
// token; the reference typed and the page shown opened by keyboard.
test('the internal replay page replays a quote the customer answered', async ({ browser, page }, testInfo) => {
  await page.goto('/quote?brand=pos');
  await describeRexAndGoOn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Your details' })).toBeVisible();
  const reference: string = await page.evaluate(async () => {
    const answer = await fetch('/quote/your-details', { headers: { Accept: 'application/json' } });
    return (await answer.json()).data.qidu;
  });
  expect(reference).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);

  const stranger = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  expect((await stranger.request.get(`/internal/replay?reference=${reference}`)).status()).toBe(401);
  await stranger.close();

  const staff = await browser.newContext({ baseURL: testInfo.project.use.baseURL, httpCredentials: { username: 'staff', password: adminToken } });
  const internal = await staff.newPage();
  await internal.goto('/internal/replay');
  await expect(internal.getByRole('heading', { level: 1, name: 'Replay a quote' })).toBeVisible();
  await expectAccessible(internal);
  // The reference as read out on the phone: lower case is forgiven.
  await internal.getByLabel('Quote reference').focus();
  await internal.keyboard.type(reference.toLowerCase());
  await press(internal, internal.getByRole('button', { name: 'Replay' }));
  await expect(internal.getByRole('heading', { level: 1, name: `Replay of quote ${reference}` })).toBeVisible();
  const step = internal.getByRole('region', { name: /^1\. submit:pet_details: pet_details → your_details, moved$/ });
  await expect(step).toBeVisible();
  await expect(step.getByText('run again: agrees with the log')).toBeVisible();
  await expect(step.getByRole('row', { name: 'pets[0].pet_name "Rex"' })).toBeVisible();
  // The page shown, opened by keyboard.
  const shown = step.getByText(/^The page shown: your_details/);
  await shown.focus();
  await internal.keyboard.press('Enter');
  await expect(step.locator('pre').last()).toContainText('"qidu": "' + reference + '"');
  await expectAccessible(internal);
  await screenshot(internal, testInfo, 'internal-replay');
  // A reference no quote has.
  await internal.goto('/internal/replay?reference=ZZZZ-ZZZZ-ZZZZ');
  await expect(internal.getByRole('alert')).toHaveText('No quote has the reference ZZZZ-ZZZZ-ZZZZ.');
  await expectAccessible(internal);
  await staff.close();
});

// What a change of the definitions does to customers, as a page behind the admin
// token; here the served version against itself (the only one this server has kept): nothing
// changed, nothing lands elsewhere, the tables drawn. (Quotes the other tests wrote into through
// the test host's patch call are not run again, and are counted with why.)
test('the internal impact page compares definitions versions on recent quotes', async ({ browser, page }, testInfo) => {
  await page.goto('/quote?brand=pos');
  await describeRexAndGoOn(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Your details' })).toBeVisible();

  const stranger = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  expect((await stranger.request.get('/internal/impact?from=served&to=served')).status()).toBe(401);
  await stranger.close();

  const staff = await browser.newContext({ baseURL: testInfo.project.use.baseURL, httpCredentials: { username: 'staff', password: adminToken } });
  const internal = await staff.newPage();
  await internal.goto('/internal/impact');
  await expect(internal.getByRole('heading', { level: 1, name: 'Impact of a definitions change' })).toBeVisible();
  await expect(internal.getByRole('heading', { level: 2, name: 'Versions kept' })).toBeVisible();
  await expectAccessible(internal);
  await internal.getByLabel('After').focus();
  await internal.keyboard.type('served');
  await internal.getByLabel('Quotes to run').fill('200');
  await press(internal, internal.getByRole('button', { name: 'Show the impact' }));
  await expect(internal).toHaveURL(/to=served/);
  await expect(internal.getByRole('heading', { level: 2, name: 'What changed in the definitions: 0' })).toBeVisible();
  await expect(internal.getByRole('heading', { level: 2, name: /^What it does to real quotes: [1-9]\d* of \d+ run again$/ })).toBeVisible();
  await expect(internal.getByRole('heading', { level: 3, name: 'Would land on a different step: 0' })).toBeVisible();
  // The price table, once some quote here has been priced (the other tests' quotes).
  await expect(internal.getByRole('region', { name: 'Price changes' }).or(internal.getByText('No price was quoted on both sides.'))).toBeVisible();
  await expectAccessible(internal);
  await screenshot(internal, testInfo, 'internal-impact');
  // A version this server never kept is named.
  await internal.goto('/internal/impact?from=served&to=feedface');
  await expect(internal.getByRole('alert')).toContainText('no definitions version "feedface" is kept');
  await expectAccessible(internal);
  await staff.close();
});
