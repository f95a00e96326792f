import { expect, type Locator, type Page, test } from '@playwright/test';

import { expectAccessible, screenshot, showVariation, watchConsole } from './support';
import { fillYourDetails } from './support-owner';
import { lifetime4000ByKeyboard } from './support-journey';
import { describeRexAndGoOn } from './support-pets';

// The page that sells (journey.md §2 Cover select, §4 Cover selection): choose policy
// at 1280×800 and at 375×812, as a customer sees it first and walks it by keyboard.

test.beforeEach(async ({ page }, testInfo) => {
  if (testInfo.project.name === 'desktop') await page.setViewportSize({ width: 1280, height: 800 });
});

async function rexToChoosePolicy(page: Page, brand = 'pos', variation: 'tiles' | 'guide' = 'tiles') {
  await page.goto(`/quote?brand=${brand}`);
  await showVariation(page, variation);
  await describeRexAndGoOn(page);
  await fillYourDetails(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  await expect(page.getByRole('heading', { name: "Choose Rex's cover" })).toBeVisible();
}

function priceBar(page: Page, name: string): Locator {
  return page.getByRole('region', { name: `${name}'s price` });
}

/** Where the top of the sticky price bar is drawn, in the viewport. */
async function barTop(bar: Locator): Promise<number> {
  return bar.evaluate((el) => el.getBoundingClientRect().top);
}

for (const variation of ['tiles', 'guide'] as const) {
  test(`the first screen shows a cover option clear of the price bar (${variation})`, async ({ page }, testInfo) => {
    const problems = watchConsole(page);
    await rexToChoosePolicy(page, 'pos', variation);
    const top = await barTop(priceBar(page, 'Rex'));
    // The first cover option, whole, above the bar, without scrolling: the Lifetime tile's name,
    // or the guide's first question with its answers.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const option =
      variation === 'tiles'
        ? page.getByRole('heading', { name: 'Lifetime', exact: true })
        : page.getByRole('group', { name: 'Do you want cover for short-term and long-term ongoing conditions?' });
    const box = await option.boundingBox();
    expect(box, 'the first cover option is drawn').not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(top);
    await screenshot(page, testInfo, `choose-policy-first-screen-${variation}`);
    await expectAccessible(page);
    expect(problems()).toEqual([]);
  });
}

test('focus is never hidden under the price bar (WCAG 2.2 2.4.11)', async ({ page }) => {
  await rexToChoosePolicy(page);
  // The cover level tab holds the most controls: the stepper, the table's Select buttons.
  const tab = page.getByRole('tab', { name: /Cover level/ });
  await tab.click();
  await tab.focus();
  const bar = priceBar(page, 'Rex');
  let checked = 0;
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    // After the browser's own scrolling and the page's, two frames on.
    const seen = await page.evaluate(
      () =>
        new Promise<{ inBar: boolean; inMain: boolean; bottom: number; top: number; barTop: number; what: string }>((resolve) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              const el = document.activeElement as HTMLElement;
              const bar = document.querySelector('.price-bar') as HTMLElement;
              const r = el.getBoundingClientRect();
              resolve({
                inBar: bar.contains(el),
                inMain: Boolean(el.closest('main')),
                bottom: r.bottom,
                top: r.top,
                barTop: bar.getBoundingClientRect().top,
                what: `${el.tagName} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40)}`,
              });
            }),
          ),
        ),
    );
    if (!seen.inMain) break; // past the page, into the footer
    if (seen.inBar) continue;
    checked += 1;
    expect(seen.top, `${seen.what} starts on screen`).toBeGreaterThanOrEqual(0);
    // Whole above the bar; one taller than the room there, from its top.
    if (seen.bottom - seen.top + 16 > seen.barTop) expect(seen.top, `${seen.what} starts above the price bar`).toBeLessThan(seen.barTop / 2);
    else expect(seen.bottom, `${seen.what} ends above the price bar`).toBeLessThanOrEqual(seen.barTop);
  }
  // The walk went through the table, the benefits and the upsell, not one control.
  expect(checked).toBeGreaterThan(10);
  await expect(bar).toBeVisible();
});

test('Continue says what it waits for, and the way there is one key press', async ({ page }) => {
  await rexToChoosePolicy(page);
  const bar = priceBar(page, 'Rex');
  const go = bar.getByRole('button', { name: 'Continue', exact: true });
  // journey.md §4: Continue waits until the benefits block has been in view; the bar says so.
  const hint = bar.getByRole('button', { name: "Read what's included first" });
  await expect(go).toBeDisabled();
  await expect(go).toHaveAccessibleDescription("Read what's included first");
  await hint.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: "What's included?" })).toBeFocused();
  await expect(go).toBeEnabled();
  await expect(hint).toHaveCount(0);
  // In view, clear of the bar.
  const heading = await page.getByRole('heading', { name: "What's included?" }).boundingBox();
  expect(heading!.y + heading!.height).toBeLessThanOrEqual(await barTop(bar));
  await expectAccessible(page);
});

test('amounts are never broken inside, the tabs fit, and the rating is said once', async ({ page }, testInfo) => {
  await rexToChoosePolicy(page);
  const tabs = page.getByRole('tablist', { name: "Choose Rex's cover" });
  const fits = await tabs.evaluate((el) => el.scrollWidth <= el.clientWidth);
  expect(fits, 'every tab of the row is on screen').toBe(true);
  await page.getByRole('tab', { name: /Cover level/ }).click();
  // Every amount in the level table and the benefits (£2,000,000, £23.92) is on one line.
  const broken = await page.evaluate(() => {
    const out: string[] = [];
    const found: string[] = [];
    for (const root of document.querySelectorAll('.levels__table, .included__list')) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of (node.textContent ?? '').matchAll(/£[\d,]+(?:\.\d{2})?/g)) {
          const range = document.createRange();
          range.setStart(node, m.index ?? 0);
          range.setEnd(node, (m.index ?? 0) + m[0].length);
          found.push(m[0]);
          if (range.getClientRects().length !== 1) out.push(m[0]);
        }
      }
    }
    return { out, found };
  });
  expect(broken.found).toContain('£2,000,000');
  expect(broken.out).toEqual([]);
  // Every level of the table is rated: the badge once, not in every column.
  await expect(page.getByRole('tabpanel').getByText('5★ rated')).toHaveCount(1);
  await screenshot(page, testInfo, 'choose-policy-level');
});

test("sbp's best-buy banner is beside the dog's cover, not the cat's", async ({ page }, testInfo) => {
  await page.goto('/quote?brand=sbp');
  const sections = page.locator('section.pet');
  await page.getByLabel("What is your pet's name?").fill('Rex');
  await page.getByRole('radio', { name: 'Dog', exact: true }).check();
  await page.getByRole('radio', { name: 'Pedigree', exact: true }).check();
  await page.getByRole('combobox', { name: /^What breed is .+\?$/ }).pressSequentially('beag');
  await page.getByRole('option', { name: 'Beagle', exact: true }).click();
  for (const [i, name] of [
    [0, 'Rex'],
    [1, 'Tigger'],
  ] as const) {
    const s = sections.nth(i);
    if (i === 1) {
      await page.getByRole('button', { name: 'Add another pet' }).click();
      await s.getByLabel("What is your pet's name?").fill(name);
      await s.getByRole('radio', { name: 'Cat', exact: true }).check();
      await s.getByRole('radio', { name: 'Moggie', exact: true }).check();
    }
    await s.getByRole('textbox', { name: 'Day' }).fill('01');
    await s.getByRole('textbox', { name: 'Month' }).fill('02');
    await s.getByRole('textbox', { name: 'Year' }).fill('2023');
    await s.getByRole('radio', { name: 'Male', exact: true }).check();
    await s.getByRole('group', { name: /^Has .+ been neutered\?$/ }).getByRole('radio', { name: 'Yes' }).check();
    await s.getByRole('group', { name: /^Has .+ had any injury or illness\?$/ }).getByRole('radio', { name: 'No' }).check();
    await s.getByRole('checkbox', { name: "I didn't pay anything" }).check();
  }
  await page.getByRole('button', { name: 'Next' }).click();
  await fillYourDetails(page);
  await page.getByRole('button', { name: 'Next' }).click();
  const banner = page.getByRole('complementary', { name: 'Rated a Best Buy for dog insurance' });
  await expect(page.getByRole('heading', { name: "Choose Rex's cover" })).toBeVisible();
  await expect(banner).toHaveCount(1);
  await priceBar(page, 'Rex').getByRole('button', { name: "Read what's included first" }).click();
  await page.getByRole('button', { name: "Next: Tigger's cover" }).click();
  await expect(page.getByRole('heading', { name: "Choose Tigger's cover" })).toBeVisible();
  await expect(banner).toHaveCount(0);
  await expectAccessible(page);
  await lifetime4000ByKeyboard(page, 'Tigger');
  const hint = priceBar(page, 'Tigger').getByRole('button', { name: "Read what's included first" });
  if ((await hint.count()) > 0) await hint.click();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page).toHaveURL(/\/quote\/review$/);
  // On review, in Rex's block only.
  await expect(banner).toHaveCount(1);
  await expect(page.getByRole('region', { name: 'Rex', exact: true }).getByRole('complementary', { name: 'Rated a Best Buy for dog insurance' })).toHaveCount(1);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'sbp-review');
});

// Journey.md §4: "Default claim contribution of 10% is added to the quote": the
// excess and claim contribution, with their claim example, beside the price on choose policy,
// review and payment.
test('the claim contribution and its example are beside every price', async ({ page }) => {
  await rexToChoosePolicy(page);
  const money = String.raw`£[\d,]+(?:\.\d{2})?`;
  const terms = new RegExp(`This price includes a ${money} excess and a 10% claim contribution: on a ${money} vet bill you pay ${money} and we pay ${money}\\.`);
  await expect(page.getByText(terms)).toBeVisible();
  // The level tab too, and the way to change it opens the excess tab.
  await page.getByRole('tab', { name: /Cover level/ }).click();
  await expect(page.getByText(terms)).toBeVisible();
  await page.getByRole('button', { name: 'Change excess' }).click();
  await expect(page.getByRole('tab', { name: /Excess/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('heading', { name: 'Claim example' })).toBeVisible();
  const hint = priceBar(page, 'Rex').getByRole('button', { name: "Read what's included first" });
  if ((await hint.count()) > 0) await hint.click();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page).toHaveURL(/\/quote\/review$/);
  await expect(page.getByRole('region', { name: 'Rex', exact: true }).getByText(terms)).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await page.getByRole('checkbox', { name: /Yes, they're correct/ }).check();
  await page.getByRole('button', { name: 'Go to payment' }).click();
  await expect(page).toHaveURL(/\/quote\/payment$/);
  await page.locator('summary', { hasText: 'Your quote' }).click();
  await expect(page.getByText(terms)).toBeVisible();
  await expectAccessible(page);
});

// The benefits modal on a phone keeps its Close in view as the table scrolls, and
// every level's chip is whole (they wrap rather than run off the side).
test('the benefits modal keeps Close in view and shows every level whole', async ({ page }, testInfo) => {
  await rexToChoosePolicy(page);
  await page.getByRole('tab', { name: /Cover level/ }).click();
  await page.getByRole('button', { name: "Find out what is and isn't covered" }).first().click();
  const benefits = page.getByRole('dialog', { name: 'Benefits by cover level' });
  await expect(benefits).toBeVisible();
  const tabs = benefits.getByRole('tab');
  expect(await tabs.count()).toBeGreaterThanOrEqual(5);
  const dialogBox = (await benefits.boundingBox())!;
  for (const tab of await tabs.all()) {
    const box = (await tab.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(dialogBox.x);
    expect(box.x + box.width).toBeLessThanOrEqual(dialogBox.x + dialogBox.width);
  }
  await expect(benefits.getByRole('tab', { name: 'Lifetime £8,000' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'benefits-modal');
  // Scrolled to the end of the table, the Close is still in view, and closes.
  await benefits.evaluate((d) => d.scrollTo(0, d.scrollHeight));
  const close = benefits.getByRole('button', { name: 'Close' });
  await expect(close).toBeInViewport({ ratio: 1 });
  await screenshot(page, testInfo, 'benefits-modal-scrolled');
  await close.click();
  await expect(benefits).toBeHidden();
});
