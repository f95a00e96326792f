import { expect, type Locator, type Page, test } from '@playwright/test';

import { expectAccessible, screenshot, showVariation, watchConsole } from './support';
import { fillYourDetails } from './support-owner';
import { describeRex, describeRexAndGoOn, describeTigger } from './support-pets';

// The price always says what it buys (journey.md §2 Cover select, owner-payment.md §2
// Payment page and Bank details panel, §4 Prices: the annual view is 12 × monthly), at 1280 px
// and at 375 px.

function bar(page: Page, name: string): Locator {
  return page.getByRole('region', { name: `${name}'s price` });
}

/** "£26.79" → 2679. */
function pence(text: string): number {
  const m = /£([\d,]+)\.(\d\d)/.exec(text);
  if (!m) throw new Error(`no price in ${text}`);
  return Number(m[1].replace(/,/g, '')) * 100 + Number(m[2]);
}

async function monthlyIn(region: Locator): Promise<number> {
  return pence(await region.locator('.price-bar__monthly').innerText());
}

async function toChoosePolicy(page: Page, variation: 'tiles' | 'guide') {
  await page.goto('/quote?brand=pos');
  await showVariation(page, variation);
  await describeRexAndGoOn(page);
  await fillYourDetails(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: "Choose Rex's cover" })).toBeVisible();
}

test('the price bar names the cover and level it prices', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await toChoosePolicy(page, 'tiles');
  const rex = bar(page, 'Rex');
  // A dog starts on Lifetime at its second cheapest level (journey.md §4), named as such.
  await expect(rex.locator('.price-bar__names')).toHaveText(/^Lifetime £[\d,]+$/);
  await expect(rex).toBeInViewport();
  await page.getByRole('tab', { name: /Cover level/ }).click();
  await page.getByRole('button', { name: /^Select(ed)? – £4,000$/ }).click();
  await expect(rex.locator('.price-bar__names')).toHaveText('Lifetime £4,000');
  await expect(rex).toContainText(/£\d+\.\d\d per month/);
  await expect(rex).toContainText(/£\d+\.\d\d per year/);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'choose-policy-named');
  expect(problems()).toEqual([]);
});

test('a pre-answered guide question says it was pre-answered, until the customer answers', async ({ page }, testInfo) => {
  await toChoosePolicy(page, 'guide');
  const note = page.getByText("We've pre-answered these questions to start you on Lifetime cover. Change an answer if it doesn't suit you.");
  await expect(note).toBeVisible();
  const first = page.getByRole('group', { name: 'Do you want cover for short-term and long-term ongoing conditions?' });
  await expect(first).toHaveAccessibleDescription(/pre-answered/);
  await expect(first.getByRole('radio', { name: 'Yes' })).toBeChecked();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'guide-pre-answered');
  await first.getByRole('radio', { name: 'No' }).check();
  await expect(note).toHaveCount(0);
  // A new cover type clears the level (journey.md §4): the bar asks for one rather than price another.
  await expect(bar(page, 'Rex')).toContainText('Choose a cover level to see the price');
  await page.getByRole('tab', { name: /Cover level/ }).click();
  await page.getByRole('button', { name: /^Select – £4,000$/ }).click();
  await expect(bar(page, 'Rex').locator('.price-bar__names')).toHaveText('Time Limited £4,000');
});

test('with two pets the bar gives the household total, and Back is on the page, not in the bar', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote?brand=pos');
  await showVariation(page, 'tiles');
  await describeRex(page);
  await page.getByRole('button', { name: 'Add another pet' }).click();
  await describeTigger(page.locator('section.pet').nth(1));
  await page.getByRole('button', { name: 'Next' }).click();
  await fillYourDetails(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: "Choose Rex's cover" })).toBeVisible();

  // Tigger has no cover chosen yet: no total that would leave him out.
  await expect(bar(page, 'Rex').locator('.price-bar__household')).toHaveCount(0);
  const rexMonthly = await monthlyIn(bar(page, 'Rex'));
  await bar(page, 'Rex').getByRole('button', { name: "Read what's included first" }).click();
  await bar(page, 'Rex').getByRole('button', { name: "Next: Tigger's cover" }).click();
  await expect(page.getByRole('heading', { name: "Choose Tigger's cover" })).toBeVisible();
  // Back to Rex's cover is on the page, before the heading; the bar holds only the way on.
  await expect(page.getByRole('button', { name: "Back to Rex's cover" })).toBeVisible();
  await expect(bar(page, 'Tigger').getByRole('button', { name: "Back to Rex's cover" })).toHaveCount(0);
  await page.getByRole('button', { name: 'Choose cover level – Lifetime' }).click();
  await page.getByRole('button', { name: /^Select(ed)? – £4,000$/ }).click();
  const tiggerBar = bar(page, 'Tigger');
  await expect(tiggerBar.locator('.price-bar__names')).toHaveText('Lifetime £4,000');
  const tiggerMonthly = await monthlyIn(tiggerBar);
  const total = rexMonthly + tiggerMonthly;
  const written = `£${Math.floor(total / 100).toLocaleString('en-GB')}.${String(total % 100).padStart(2, '0')}`;
  await expect(tiggerBar.locator('.price-bar__household')).toHaveText(`All 2 pets: ${written} a month`);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'choose-policy-two-pets');

  // The review's total is the same sum (owner-payment.md §4 Prices).
  const hint = tiggerBar.getByRole('button', { name: "Read what's included first" });
  if ((await hint.count()) > 0) await hint.click();
  await tiggerBar.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/quote\/review$/);
  await expect(page.getByText(written).first()).toBeVisible();
  expect(problems()).toEqual([]);
});

test('the price bar stays on the page where the window is short', async ({ page }) => {
  await toChoosePolicy(page, 'tiles');
  const position = () => page.locator('.price-bar').evaluate((el) => getComputedStyle(el).position);
  expect(await position()).toBe('sticky');
  // 200% zoom of a 1280×800 window, and a phone on its side.
  for (const size of [
    { width: 640, height: 400 },
    { width: 812, height: 375 },
  ]) {
    await page.setViewportSize(size);
    await expect.poll(position).toBe('static');
  }
});

test('the payment page puts the amount on each way to pay and says Confirm payment takes nothing yet', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await toChoosePolicy(page, 'tiles');
  const monthly = await monthlyIn(bar(page, 'Rex'));
  await bar(page, 'Rex').getByRole('button', { name: "Read what's included first" }).click();
  await bar(page, 'Rex').getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/quote\/review$/);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('checkbox', { name: /Yes, they're correct/ }).check();
  await page.getByRole('button', { name: 'Go to payment' }).click();
  await expect(page).toHaveURL(/\/quote\/payment$/);

  const pounds = (p: number) => `£${Math.floor(p / 100).toLocaleString('en-GB')}.${String(p % 100).padStart(2, '0')}`;
  await expect(page.getByRole('radio', { name: 'Monthly' })).toHaveAccessibleDescription(`${pounds(monthly)} a month`);
  await expect(page.getByRole('radio', { name: 'Yearly' })).toHaveAccessibleDescription(
    `${pounds(monthly * 12)} a year in one payment: twelve months' price, with no saving. Taken by Direct Debit on or shortly after your first collection date.`,
  );
  const confirm = page.getByRole('button', { name: 'Confirm payment' });
  await expect(confirm).toHaveAccessibleDescription('Nothing is taken yet. Next you check your payment details, then buy your policy.');
  await expect(page.getByText('Nothing is taken yet. Next you check your payment details, then buy your policy.')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'payment-amounts');

  await page.getByLabel('Account holder name').fill('Ada ONeill');
  await page.getByLabel('Sort code digits 1 of 3').fill('08');
  await page.getByLabel('Sort code digits 2 of 3').fill('99');
  await page.getByLabel('Sort code digits 3 of 3').fill('99');
  await page.getByLabel('Account number', { exact: true }).fill('66374958');
  await page.getByLabel('Preferred collection day').selectOption('15');
  await page.getByRole('checkbox', { name: /I am the account holder/ }).check();
  await confirm.click();
  await expect(page).toHaveURL(/\/quote\/payment-confirmation$/);
  // The button that buys says so, with the price, to whoever reads its description.
  const buy = page.getByRole('button', { name: 'Continue' });
  await expect(buy).toHaveAccessibleDescription(new RegExp(`^Continue buys your policy, .+ Your policy costs ${pounds(monthly).replace('.', '\\.')} a month\\. `));
  await expectAccessible(page);
  await screenshot(page, testInfo, 'payment-confirmation-price');
  expect(problems()).toEqual([]);
});
