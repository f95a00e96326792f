import { expect, test } from '@playwright/test';

import { describeRexAndGoOn } from './support-pets';
import { watchConsole } from './support';

// Issue 29, "Analytics that leave the browser": a brand that names its tag manager
// (journeys/brands/ptp.json: tracking.tag_manager) has it loaded, with its origins in that brand's
// content security policy only, and the page's data layer events reach it and leave the page.
// The tag manager here is a stand-in served by the test at the brand's own addresses (no test
// reaches the internet): it sends each data layer event to the analytics origin the brand names,
// as a real container's tags would. The browser enforces the page's real policy throughout.

const TAG = `
  (function () {
    var layer = (window.dataLayer = window.dataLayer || []);
    function send(e) { fetch('https://www.google-analytics.com/g/collect', { method: 'POST', mode: 'no-cors', body: JSON.stringify(e) }); }
    layer.forEach(send);
    var push = layer.push.bind(layer);
    layer.push = function (e) { send(e); return push(e); };
  })();
`;

test('a brand with a tag manager: its events leave the page; a brand without: nothing loads', async ({ page }) => {
  const problems = watchConsole(page);
  const sent: Array<Record<string, unknown>> = [];
  const tagRequests: string[] = [];
  await page.route('https://www.googletagmanager.com/**', (route) => {
    tagRequests.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: TAG });
  });
  await page.route('https://www.google-analytics.com/**', (route) => {
    sent.push(JSON.parse(route.request().postData() ?? '{}') as Record<string, unknown>);
    return route.fulfill({ status: 204 });
  });

  await page.goto('/quote?brand=ptp');
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  expect(tagRequests).toEqual(['https://www.googletagmanager.com/gtm.js?id=GTM-PTPPAWS']);
  await expect.poll(() => sent.map((e) => e.event)).toContain('page_view');
  const view = sent.find((e) => e.event === 'page_view');
  expect(view).toMatchObject({ brand: 'ptp', tracking_id: 'GTM-PTPPAWS', step: 'pet_details' });
  // The tag manager's own start event goes first, as its snippet would push it.
  expect(sent[0]).toMatchObject({ event: 'gtm.js' });
  // A step submitted: its event leaves too.
  await describeRexAndGoOn(page);
  await expect(page).toHaveURL(/\/quote\/your-details/);
  await expect.poll(() => sent.filter((e) => e.event === 'submission').map((e) => e.page)).toContain('pet_details');
  expect(problems()).toEqual([]);
});

test('a brand without a tag manager loads none, and its policy refuses one', async ({ page }) => {
  const tagRequests: string[] = [];
  await page.route('https://www.googletagmanager.com/**', (route) => {
    tagRequests.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: TAG });
  });
  const response = await page.goto('/quote?brand=pos');
  expect(response?.headers()['content-security-policy']).not.toContain('googletagmanager');
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  // Even a script the page tried to add would be refused by the browser.
  const loaded = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const s = document.createElement('script');
        s.src = 'https://www.googletagmanager.com/gtm.js?id=GTM-POSPAWS';
        s.onload = () => resolve(true);
        s.onerror = () => resolve(false);
        document.head.appendChild(s);
      }),
  );
  expect(loaded).toBe(false);
  expect(tagRequests).toEqual([]);
});
