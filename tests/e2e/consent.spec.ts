import { readdirSync, readFileSync } from 'node:fs';

import { expect, type Page, type Request, test } from '@playwright/test';

import { describeRexAndGoOn } from './support-pets';
import { expectAccessible, screenshot, watchConsole } from './support';

// Consent before tags, following the ICO's guidance on cookies and similar
// technologies: on every brand, no request leaves for a tag manager or an analytics origin and no
// cookie but the session's is set before the customer chooses; rejecting is as easy as
// accepting, on the first page; after acceptance the brand's tag manager is requested and reads
// the page's events (per page here; transactionDetails and the purchase once are
// purchase.spec.ts's, which runs accepted); a withdrawal from the footer reloads the page without
// it and deletes its cookies. The tag manager is a stand-in served by the test at the brand's own
// address (no test reaches the internet): it sends each data layer event to the analytics origin
// the brand names, as a real container's tags would, and sets an analytics cookie. The browser
// enforces the page's real content security policy throughout.

// From no choice at all (the rest of the suite starts from "Reject", playwright.config.ts).
test.use({ storageState: { cookies: [], origins: [] } });

const TAG = `
  (function () {
    document.cookie = '_ga=GA1.1.123.456; Path=/';
    var layer = (window.dataLayer = window.dataLayer || []);
    function send(e) { fetch('https://www.google-analytics.com/g/collect', { method: 'POST', mode: 'no-cors', body: JSON.stringify(e) }); }
    layer.forEach(send);
    var push = layer.push.bind(layer);
    layer.push = function (e) { send(e); return push(e); };
  })();
`;

interface Brand {
  id: string;
  display_name: string;
  languages: string[];
  tracking: { container_id: string; tag_manager?: { script: string; origins: string[] } };
}
const BRANDS: Brand[] = readdirSync('../journeys/brands')
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(`../journeys/brands/${f}`, 'utf8')) as Brand);

const ACCEPT = /^(Accept analytics cookies|Accepter les cookies de mesure d'audience)$/;
const REJECT = /^(Reject analytics cookies|Refuser les cookies de mesure d'audience)$/;

/** Every request the page makes to anywhere but pawpath itself, and what the stand-in sends. */
function watchOutside(page: Page) {
  const outside: string[] = [];
  const sent: Array<Record<string, unknown>> = [];
  page.on('request', (r: Request) => {
    if (!r.url().startsWith('http://127.0.0.1')) outside.push(r.url());
  });
  void page.route('https://www.googletagmanager.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: TAG }));
  void page.route('https://www.google-analytics.com/**', (route) => {
    sent.push(JSON.parse(route.request().postData() ?? '{}') as Record<string, unknown>);
    return route.fulfill({ status: 204 });
  });
  return { outside, sent };
}

async function cookieNames(page: Page): Promise<string[]> {
  return (await page.context().cookies()).map((c) => c.name).sort();
}

for (const brand of BRANDS.filter((b) => b.tracking.tag_manager)) {
  test(`${brand.id}: nothing leaves for its tag manager before the choice, and rejecting keeps it so`, async ({ page }) => {
    test.skip(test.info().project.name === 'mobile', 'what leaves the page is the same at every width');
    const problems = watchConsole(page);
    const { outside } = watchOutside(page);
    await page.goto(`/quote?brand=${brand.id}`);
    const banner = page.getByRole('region', { name: new RegExp(brand.display_name) });
    await expect(banner).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(outside).toEqual([]);
    expect(await cookieNames(page)).toEqual(['pawpath_session']);
    expect(await page.locator('script#pawpath-tag-manager').count()).toBe(0);

    // Rejecting: one button, beside accepting and drawn alike.
    const accept = banner.getByRole('button', { name: ACCEPT });
    const reject = banner.getByRole('button', { name: REJECT });
    expect(await reject.getAttribute('class')).toBe(await accept.getAttribute('class'));
    await reject.click();
    await expect(banner).toContainText(/You have rejected analytics cookies|Vous avez refusé/);
    expect(await cookieNames(page)).toEqual([`pawpath_consent_${brand.id}`, 'pawpath_session']);
    // Remembered: the next page load neither asks again nor loads anything.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('region', { name: new RegExp(brand.display_name) })).toHaveCount(0);
    expect(outside).toEqual([]);
    expect(await page.locator('script#pawpath-tag-manager').count()).toBe(0);
    expect(problems()).toEqual([]);
  });
}

test('ptp before and after consent: its tag manager requested only on acceptance, and the page’s events reach it', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  const { outside, sent } = watchOutside(page);
  await page.goto('/quote?brand=ptp');
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  const banner = page.getByRole('region', { name: 'Cookies on Paws to Play Insurance' });
  await expect(banner).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'consent-ptp-before');
  // By keyboard: the banner comes first, accepting and rejecting one Tab apart.
  await page.keyboard.press('Tab');
  await expect(banner.getByRole('button', { name: ACCEPT })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(banner.getByRole('button', { name: REJECT })).toBeFocused();
  await page.waitForLoadState('networkidle');
  expect(outside).toEqual([]);

  await banner.getByRole('button', { name: ACCEPT }).click();
  await expect(banner).toContainText('You have accepted analytics cookies.');
  await expect(banner.getByText('You have accepted analytics cookies.', { exact: false })).toBeFocused();
  await expect.poll(() => outside.filter((u) => u.includes('googletagmanager'))).toEqual(['https://www.googletagmanager.com/gtm.js?id=GTM-PTPPAWS']);
  // The page view held in the page before the choice goes too, after the tag manager's start.
  await expect.poll(() => sent.map((e) => e.event)).toEqual(expect.arrayContaining(['gtm.js', 'page_view']));
  expect(sent.find((e) => e.event === 'page_view')).toMatchObject({ brand: 'ptp', tracking_id: 'GTM-PTPPAWS', step: 'pet_details' });
  expect(await cookieNames(page)).toEqual(['_ga', 'pawpath_consent_ptp', 'pawpath_session']);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'consent-ptp-accepted');
  await banner.getByRole('button', { name: 'Hide this message' }).click();
  await expect(banner).toHaveCount(0);
  await screenshot(page, testInfo, 'consent-ptp-after');

  // A step submitted: its event leaves too.
  await describeRexAndGoOn(page);
  await expect(page).toHaveURL(/\/quote\/your-details/);
  await expect.poll(() => sent.filter((e) => e.event === 'submission').map((e) => e.page)).toContain('pet_details');
  // The next page load asks nothing and loads it at once.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cookies on Paws to Play Insurance' })).toHaveCount(0);
  await expect(page.locator('script#pawpath-tag-manager')).toHaveCount(1);
  expect(problems()).toEqual([]);
});

test('a withdrawal from the footer: the page loads again without the tag manager, its cookies gone', async ({ page }, testInfo) => {
  test.skip(test.info().project.name === 'mobile', 'the same at every width');
  const problems = watchConsole(page);
  const { outside, sent } = watchOutside(page);
  await page.goto('/quote?brand=ptp');
  await page.getByRole('button', { name: ACCEPT }).click();
  await expect.poll(() => sent.map((e) => e.event)).toContain('page_view');
  await page.getByRole('button', { name: 'Hide this message' }).click();

  await page.getByRole('contentinfo').getByRole('button', { name: 'Cookie settings' }).click();
  const banner = page.getByRole('region', { name: 'Cookies on Paws to Play Insurance' });
  await expect(banner.getByRole('heading', { name: 'Cookies on Paws to Play Insurance' })).toBeFocused();
  await expect(banner).toContainText('At the moment you accept analytics cookies.');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'consent-ptp-settings');
  const before = outside.length;
  const sentBefore = sent.length;
  await banner.getByRole('button', { name: REJECT }).click();
  await expect(page.getByRole('region', { name: 'Cookies on Paws to Play Insurance' })).toContainText('You have rejected analytics cookies.');
  await expect(page.locator('script#pawpath-tag-manager')).toHaveCount(0);
  expect(await cookieNames(page)).toEqual(['pawpath_consent_ptp', 'pawpath_session']);
  await page.waitForLoadState('networkidle');
  expect(outside.length).toBe(before);
  expect(sent.length).toBe(sentBefore);
  expect(await page.evaluate(() => (window as unknown as { dataLayer?: unknown[] }).dataLayer ?? [])).toEqual([]);
  expect(problems()).toEqual([]);
});
