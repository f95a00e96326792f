import { expect, test } from '@playwright/test';

import { expectAccessible, screenshot, watchConsole } from './support';
import { chooseTab, press } from './support-keys';
import { detailsByKeyboard, lifetime4000ByKeyboard, petByKeyboard } from './support-journey';

// Owner-payment.md §2 Review
// ("why-insure and what-to-expect copy, a rating block"), §9 Documents and static copy (the
// Defaqto 5-star notice, the price-comparison promotional terms page), journey.md §9 (average
// claim copy; example excess per condition per year: dog 110).

test('choose-policy and review carry the average claim, the example excess, the rating block and what to expect', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote');
  await petByKeyboard(page, 0, { name: 'Rex', species: 'Dog', type: 'Pedigree', breed: ['beag', 'Beagle'] });
  await press(page, page.getByRole('button', { name: 'Next' }));
  await detailsByKeyboard(page, `content-${Date.now()}@example.com`);
  await press(page, page.getByRole('button', { name: 'Next' }));
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  await lifetime4000ByKeyboard(page, 'Rex');
  await chooseTab(page, page.getByRole('tablist', { name: "Choose Rex's cover" }), /Excess/);
  await expect(page.getByText('In 2021 the average Lifetime claim for a dog was £875.')).toBeVisible();
  await expect(page.getByText('For example, with a £110 excess you pay the first £110 of the vet bill for each condition, each policy year.')).toBeVisible();
  await screenshot(page, testInfo, 'claim-example');
  await press(page, page.getByRole('button', { name: 'Continue' }));
  await expect(page).toHaveURL(/\/quote\/review$/);

  // pos rates Lifetime except £2,500 (journey.md §9): the rating block with Defaqto's notice.
  const rating = page.getByRole('region', { name: /Rated by Defaqto/ });
  await expect(rating).toContainText('Your Lifetime cover is rated 5 stars by Defaqto.');
  await expect(rating).toContainText('Defaqto is an independent financial research company.');
  // Folded until asked for: a heading to open, the words inside.
  const why = page.locator('details').filter({ has: page.getByRole('heading', { name: 'Why insure your pet?' }) });
  await expect(why.getByRole('listitem').first()).toBeHidden();
  await why.getByText('Why insure your pet?').click();
  await expect(why.getByRole('listitem')).toHaveCount(3);
  await expect(why.getByRole('listitem').first()).toBeVisible();
  const next = page.locator('details').filter({ has: page.getByRole('heading', { name: 'What happens next' }) });
  await next.getByText('What happens next').click();
  await expect(next.getByRole('listitem').first()).toHaveText("Confirm the assumptions we've made about your pets.");
  await expect(next.getByRole('listitem').first()).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'review-content');
  expect(problems()).toEqual([]);
});

test('the price-comparison promotion terms page, for a brand sold through comparison sites', async ({ page }, testInfo) => {
  await page.goto('/aggregators/quote/price-comparison-promotion-terms?brand=pos');
  await expect(page.getByRole('heading', { level: 1, name: 'Price comparison promotion terms' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Who can take part' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'promotion-terms');
});
