import { expect, type Page, test } from '@playwright/test';

import { expectAccessible, mailTo, screenshot, stubTagManagers, watchConsole } from './support';
import { chooseRadio, press } from './support-keys';
import { directDebitByKeyboard } from './support-journey';

// ptp names a tag manager; no test reaches the internet.
test.beforeEach(async ({ page }) => stubTagManagers(page));

// Aggregator channel (journey.md §1–§2, owner-payment.md §2 Step bar, §7): a comparison
// site's quote (made through /api/fakeaggs on this test host, the same code path as the inbound
// quote API) opened by its click-through at review, then Details (assumptions), payment and
// confirmation under /aggregators/quote, by keyboard, for every brand that sells through
// comparison sites, each with its number for the comparison site the customer came from.

type Brand = { code: string; name: string; aggregator: string; phone: string; prefix: string; confirmation: string };

const BRANDS: Brand[] = [
  { code: 'pos', name: 'Pawsure Pet Cover', aggregator: 'ctm', phone: '0808 157 0011', prefix: 'PETPS', confirmation: '/confirmation' },
  { code: 'sbp', name: 'Small Beasts Pet Plan', aggregator: 'gcp', phone: '0808 157 0112', prefix: 'PETSB', confirmation: '/confirmation' },
  { code: 'pdsa', name: 'Patchwork Animal Aid Insurance', aggregator: 'msm', phone: '0808 157 0213', prefix: 'PETPA', confirmation: '/confirmation' },
  { code: 'ptp', name: 'Paws to Play Insurance', aggregator: 'cnf', phone: '0808 157 0314', prefix: 'PETPP', confirmation: '/confirmation' },
  { code: 'afs', name: 'Acorn Friendly Society Pets', aggregator: 'qze', phone: '0808 157 0415', prefix: 'PETAF', confirmation: '/confirmation' },
  { code: 'ich', name: 'Ivy Cottage Home Pets', aggregator: 'mon', phone: '0808 157 0516', prefix: 'PETIC', confirmation: '/confirmation' },
  { code: 'epw', name: 'Evenpaw', aggregator: 'ctm', phone: '0808 157 0611', prefix: 'PETEV', confirmation: '/success' },
];

async function stepIs(page: Page, label: string) {
  await expect(page.getByRole('navigation', { name: 'Your progress' }).locator('[aria-current="step"]')).toContainText(label);
}

for (const brand of BRANDS) {
  test(`${brand.code} via ${brand.aggregator}: from the comparison site's click-through to a purchase`, async ({ page }, testInfo) => {
    const problems = watchConsole(page);
    const email = `agg-${brand.code}-${testInfo.project.name}-${Date.now()}@example.com`;
    await page.goto(`/api/fakeaggs?brand=${brand.code}&aggregator=${brand.aggregator}&product=LT04000&email=${encodeURIComponent(email)}`);
    await expect(page).toHaveURL(/\/aggregators\/quote\/review\?brand=/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await stepIs(page, 'Review');
    await expect(page.getByRole('banner').getByRole('link', { name: `Call us on ${brand.phone}` })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Biscuit' })).toContainText('Lifetime');
    await expectAccessible(page);
    await screenshot(page, testInfo, `aggregator-${brand.code}-review`);

    await press(page, page.getByRole('button', { name: 'Continue' }));
    await expect(page).toHaveURL(/\/aggregators\/quote\/assumptions$/);
    await stepIs(page, 'Details');
    await expectAccessible(page);
    // The comparison site asked whether the pet is microchipped, not about injury or illness
    // (journey.md §2 Screens): the customer declares it here before paying.
    await press(page, page.getByRole('region', { name: "What we've assumed about Biscuit" }).getByRole('button', { name: /No, change assumptions/ }));
    const edit = page.getByRole('dialog', { name: "Change Biscuit's assumptions" });
    await chooseRadio(page, edit.getByRole('group', { name: /injury or illness/ }), 'No');
    await press(page, edit.getByRole('button', { name: 'Save and close' }));
    await expect(edit).toBeHidden();
    await press(page, page.getByRole('checkbox', { name: /Yes, they're correct/ }), 'Space');
    await press(page, page.getByRole('button', { name: 'Go to payment' }));
    await expect(page).toHaveURL(/\/aggregators\/quote\/payment$/);
    await stepIs(page, 'Payment');
    await expectAccessible(page);
    await directDebitByKeyboard(page);
    await press(page, page.getByRole('button', { name: 'Confirm payment' }));
    await expect(page).toHaveURL(/\/aggregators\/quote\/payment-confirmation$/);
    await expectAccessible(page);
    await press(page, page.getByRole('button', { name: 'Continue' }));
    await expect(page).toHaveURL(new RegExp(`/aggregators/quote${brand.confirmation}$`));
    await expect(page.getByRole('region', { name: 'Biscuit' })).toContainText(new RegExp(`${brand.prefix}\\d+`));
    await expectAccessible(page);
    await screenshot(page, testInfo, `aggregator-${brand.code}-confirmation`);
    const mail = await mailTo(email);
    expect(mail[0].subject).toBe(`Welcome to ${brand.name}: your pet insurance is confirmed`);
    expect(problems()).toEqual([]);
  });
}

test('the aggregator journey starts at pet details too, asking whether the pet is microchipped', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/aggregators/quote?brand=pos');
  await expect(page.getByRole('heading', { level: 1, name: 'Your pets' })).toBeVisible();
  await expect(page.getByRole('group', { name: /^Is .+ microchipped\?$/ })).toBeVisible();
  await expect(page.getByRole('group', { name: /^Has .+ had any injury or illness\?$/ })).toHaveCount(0);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Call us on 0808 157 0010' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'aggregator-pets');
  expect(problems()).toEqual([]);
});

test('aggregator review: a young pet confirms its date of birth, benefits compare by level, and the injury "no" information stays off the review', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  // journey.md §4: a pet under 12 weeks old (here 70 days) with no saved_dob is asked about.
  const born = new Date();
  born.setDate(born.getDate() - 70);
  const dob = born.toISOString().slice(0, 10);
  await page.goto(`/api/fakeaggs?brand=pos&aggregator=ctm&product=LT04000&dob=${dob}`);
  await expect(page).toHaveURL(/\/aggregators\/quote\/review\?brand=/);
  const pet = page.getByRole('region', { name: 'Biscuit' });
  const prompt = pet.getByRole('group', { name: "Please confirm Biscuit's date of birth" });
  await expect(prompt).toContainText(`${dob.slice(8, 10)}/${dob.slice(5, 7)}/${dob.slice(0, 4)}`);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'aggregator-review-dob-prompt');
  await press(page, prompt.getByRole('button', { name: /Yes, that's right/ }));
  await expect(prompt).toHaveCount(0);
  await page.reload();
  await expect(pet).toBeVisible();
  await expect(pet.getByRole('group', { name: "Please confirm Biscuit's date of birth" })).toHaveCount(0);

  // journey.md §2 Review: compare benefits, aggregator mode only: the chosen cover type's levels.
  await press(page, pet.getByRole('button', { name: /Compare benefits/ }));
  const benefits = page.getByRole('dialog', { name: 'Benefits by cover level' });
  await expect(benefits.getByRole('tab', { selected: true })).toContainText('Lifetime £4,000');
  await expect(benefits.getByRole('tab')).toHaveCount(6);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'aggregator-review-compare-benefits');
  await press(page, benefits.getByRole('button', { name: 'Close' }));
  await expect(benefits).toBeHidden();

  // journey.md §5: the injury "no" information is hidden on the aggregator review (shown on the
  // assumptions page, where it is answered).
  await press(page, page.getByRole('button', { name: 'Continue' }));
  await expect(page).toHaveURL(/\/aggregators\/quote\/assumptions$/);
  // The comparison site did not ask about injury or illness: the page asks it, in place.
  const assumed = page.getByRole('region', { name: "What we've assumed about Biscuit" });
  const injury = assumed.getByRole('radiogroup', { name: /injury or illness/ });
  await chooseRadio(page, injury, 'No');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'aggregator-assumptions-ask-injury');
  await press(page, assumed.getByRole('checkbox', { name: /Yes, they're correct/ }), 'Space');
  await press(page, page.getByRole('button', { name: 'Go to payment' }));
  await expect(page).toHaveURL(/\/aggregators\/quote\/payment$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/aggregators\/quote\/assumptions$/);
  const noInfo = 'If your pet had signs of an injury or illness before cover started, claims for it may not be paid.';
  await expect(page.getByText(noInfo)).toBeVisible();
  await press(page, page.getByRole('navigation', { name: 'Your progress' }).getByRole('link', { name: /Review/ }));
  await expect(page).toHaveURL(/\/aggregators\/quote\/review$/);
  await expect(pet).toBeVisible();
  await expect(page.getByText(noInfo)).toHaveCount(0);
  expect(problems()).toEqual([]);
});
