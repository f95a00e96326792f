import { expect, test } from '@playwright/test';

import { expectAccessible, screenshot, watchConsole } from './support';

// journey.md §2 Inactivity timeout, §4 Timers, §9 (shorter times on test hosts): against the
// second server, whose warning comes after 3 s and reset after 7 s.
test.use({ baseURL: `http://127.0.0.1:${Number(process.env.PAWPATH_E2E_PORT ?? 18181) + 1}` });

test('the warning counts down, then the reset modal starts a new quote', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote');
  await page.getByLabel("What is your pet's name?").fill('Rex');
  await page.getByRole('button', { name: 'Next' }).click();
  const firstRef = await page.evaluate(async () => (await (await fetch('/quote', { headers: { Accept: 'application/json' } })).json()).data.qidu);

  // The warning, with its countdown in red (30 s or less left).
  const warning = page.getByRole('dialog', { name: 'Are you still there?' });
  await expect(warning).toBeVisible({ timeout: 10_000 });
  // The spec's sentence with this host's own times (issue 29: ich's 1 hour, not "4 hours").
  await expect(warning).toContainText('After 7 seconds of inactivity we will reset your quote, you have 4 seconds before it resets.');
  await expect(warning.getByRole('timer')).toHaveClass(/countdown--red/);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'timeout-warning');

  // Continue: the warning goes and comes back after another 3 s of nothing.
  await warning.getByRole('button', { name: 'Continue my quote' }).click();
  await expect(warning).toHaveCount(0);
  await expect(warning).toBeVisible({ timeout: 10_000 });

  // The reset modal cannot be closed; it starts a new quote.
  const reset = page.getByRole('dialog', { name: 'Your quote has been reset' });
  await expect(reset).toBeVisible({ timeout: 15_000 });
  await expect(reset).toContainText("Due to inactivity, we've reset your quote to protect any information");
  await page.keyboard.press('Escape');
  await expect(reset).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'timeout-reset');
  await reset.getByRole('button', { name: 'Start a new quote' }).click();
  await expect(page).toHaveURL(/\/quote$/);
  await expect(page.getByLabel("What is your pet's name?")).toHaveValue('');
  const secondRef = await page.evaluate(async () => (await (await fetch('/quote', { headers: { Accept: 'application/json' } })).json()).data.qidu);
  expect(secondRef).not.toBe(firstRef);
  expect(problems()).toEqual([]);
});
