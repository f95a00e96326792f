import { expect, type Page, test } from '@playwright/test';
import { showVariation } from './support';
import { fillYourDetails } from './support-owner';
import { describeRex, describeRexAndGoOn } from './support-pets';

async function toCover(page: Page, brand: string) {
  await page.goto(`/quote?brand=${brand}`);
  await showVariation(page, 'tiles');
  await describeRexAndGoOn(page);
  await fillYourDetails(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/choose-policy$/);
  await expect(page.getByRole('heading', { name: "Choose Rex's cover" })).toBeVisible();
}
for (const brand of ['pos', 'sbp']) for (const w of [375, 1280]) {
  test(`look ${brand} ${w}`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width: w, height: w === 375 ? 812 : 800 });
    await toCover(page, brand);
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/tmp/look/${brand}-${w}-first.png` });
    await page.screenshot({ path: `/tmp/look/${brand}-${w}-full.png`, fullPage: true });
  });
}
test('look two pets', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/quote?brand=pos');
  await showVariation(page, 'guide');
  await describeRex(page);
  await page.getByRole('button', { name: 'Add another pet' }).click();
  const s = page.locator('section.pet').nth(1);
  await s.getByLabel("What is your pet's name?").fill('Tigger');
  await s.getByRole('radio', { name: 'Cat', exact: true }).check();
  await s.getByRole('radio', { name: 'Moggie', exact: true }).check();
  await s.getByRole('textbox', { name: 'Day' }).fill('01');
  await s.getByRole('textbox', { name: 'Month' }).fill('02');
  await s.getByRole('textbox', { name: 'Year' }).fill('2023');
  await s.getByRole('radio', { name: 'Male', exact: true }).check();
  await s.getByRole('group', { name: /^Has .+ been neutered\?$/ }).getByRole('radio', { name: 'Yes' }).check();
  await s.getByRole('group', { name: /^Has .+ had any injury or illness\?$/ }).getByRole('radio', { name: 'No' }).check();
  await s.getByRole('checkbox', { name: "I didn't pay anything" }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await fillYourDetails(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: "Choose Rex's cover" })).toBeVisible();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/look/two-rex.png` });
  console.log('bar', await page.locator('.price-bar').evaluate((b) => [b.getBoundingClientRect().height, b.className, b.innerText]));
  await page.getByRole('button', { name: "Read what's included first" }).click();
  await page.getByRole('button', { name: "Next: Tigger's cover" }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/look/two-tigger.png` });
  await page.getByRole('radio', { name: 'Yes' }).first().check();
  await page.getByRole('radio', { name: 'Yes' }).nth(1).check();
  await page.getByRole('button', { name: /Choose/ }).first().click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/look/two-tigger-chosen.png` });
  await page.setViewportSize({ width: 640, height: 400 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/look/two-short.png` });
  await page.setViewportSize({ width: 320, height: 640 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: `/tmp/look/two-320.png` });
});
