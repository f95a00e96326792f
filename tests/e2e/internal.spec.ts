import { expect, test } from '@playwright/test';

import { adminToken } from '../admin-token';
import { expectAccessible, screenshot } from './support';
import { press } from './support-keys';

// Issue 8: the analysts' internal funnel page, behind the admin token (HTTP Basic), per brand
// and channel; usable by keyboard and axe-clean like every page.

test('the internal funnel page asks for the admin token and shows each brand and channel', async ({ browser, page }, testInfo) => {
  test.skip(testInfo.project.name === 'mobile', 'a staff page, drawn once');
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
