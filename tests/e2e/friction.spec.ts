import { expect, test } from '@playwright/test';

import { expectAccessible } from './support';

// Issue 24, friction on the forms (journey.md §2 Error summary: "Please Check the following
// fields:", each invalid field listed).

test('an empty submit names each field in the summary, each once', async ({ page }) => {
  await page.goto('/quote');
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'Please Check the following fields:' });
  await expect(summary).toBeVisible();
  const items = await summary.getByRole('link').allTextContents();
  expect(items.length).toBeGreaterThanOrEqual(5);
  // No two alike: each says which question it is about.
  expect(new Set(items).size).toBe(items.length);
  for (const item of items) expect(item).toMatch(/^.+\? – .+/);
  expect(items).toContain("What is your pet's name? – This field is required");
  await expectAccessible(page);
});

// Issue 24: the breed suggestions open in view, so typing is seen to do something.
test('the breed suggestions open where they can be seen', async ({ page }, testInfo) => {
  if (testInfo.project.name === 'desktop') await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/quote');
  await page.getByLabel("What is your pet's name?").fill('Rex');
  await page.getByRole('radio', { name: 'Dog', exact: true }).check();
  await page.getByRole('radio', { name: 'Pedigree', exact: true }).check();
  const box = page.getByRole('combobox', { name: 'What breed is your pet?' });
  await box.focus();
  await page.keyboard.type('spa');
  const list = page.getByRole('listbox', { name: 'What breed is your pet?' });
  await expect(list).toBeVisible();
  await expect
    .poll(() => list.evaluate((el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; }))
    .toBe(true);
  await expect(box).toBeInViewport();
});
