import { expect, type Page, test } from '@playwright/test';

import { acceptAnalytics, expectAccessible, mailTo, outboxDelivered, screenshot, watchConsole } from './support';
import { chooseOption, chooseOptionByLabel, chooseRadio, chooseTab, press, typeInto } from './support-keys';
import { lifetime4000ByKeyboard } from './support-journey';
import { fillYourDetails } from './support-owner';

// These read the data layer (owner-payment.md §4 Analytics): the customer has accepted analytics cookies.
test.beforeEach(async ({ page }) => acceptAnalytics(page));

// The rehoming flow (journey.md §1 Extra flows, §2 Routes: / eligibility (1), /your-pet
// (2), /your-details (3), /confirmation (4); owner-payment.md §6 the document-scanning warnings,
// §9 free rehoming cover: 28 days, no third party liability) for the brands that list it.

/** A 1×1 PNG: a whole, real image file. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c63f80f00000101000518d84e0000000049454e44ae426082',
  'hex',
);

function daysAgo(n: number): Date {
  const d = new Date();
  d.setDate(d.getDate() - n);
  return d;
}

async function stepIs(page: Page, label: string) {
  await expect(page.getByRole('navigation', { name: 'Your progress' }).locator('[aria-current="step"]')).toContainText(label);
}

async function typeDate(page: Page, scope: ReturnType<Page['getByRole']>, date: Date) {
  await scope.getByRole('textbox', { name: 'Day' }).fill(String(date.getDate()).padStart(2, '0'));
  await scope.getByRole('textbox', { name: 'Month' }).fill(String(date.getMonth() + 1).padStart(2, '0'));
  await scope.getByRole('textbox', { name: 'Year' }).fill(String(date.getFullYear()));
}

/** Eligibility by keyboard: the centre from the brand's list, rehomed three days ago, a UK resident, not insured. */
async function eligibility(page: Page, centre: string) {
  await expect(page.getByRole('heading', { level: 1, name: 'Free cover for your rehomed pet' })).toBeVisible();
  const select = page.getByLabel('Which rehoming centre did your pet come from?');
  await expect(select).toBeEnabled();
  await chooseOptionByLabel(page, select, centre);
  await typeDate(page, page.getByRole('group', { name: 'When did your pet come home with you?' }), daysAgo(3));
  await chooseRadio(page, page.getByRole('group', { name: 'Do you live in the UK?' }), 'Yes');
  await chooseRadio(page, page.getByRole('group', { name: 'Is your pet already insured?' }), 'No');
}

/** Your pet: Pip, a neutered female moggie born in 2024, with the certificate given. */
async function yourPet(page: Page, certificate: { number: string; file: { name: string; mimeType: string; buffer: Buffer } }) {
  await expect(page.getByRole('heading', { level: 1, name: 'Your pet' })).toBeVisible();
  await page.getByLabel("What is your pet's name?").fill('Pip');
  await chooseRadio(page, page.getByRole('group', { name: /^Is .+ a dog, cat or rabbit\?$/ }), 'Cat');
  await chooseRadio(page, page.getByRole('group', { name: /What type of cat/ }), 'Moggie');
  await typeDate(page, page.getByRole('group', { name: /^What is .+ date of birth\?$/ }), new Date(2024, 4, 10));
  await chooseRadio(page, page.getByRole('group', { name: /^Is .+ male or female\?$/ }), 'Female');
  await chooseRadio(page, page.getByRole('group', { name: /^Has .+ been neutered\?$/ }), 'Yes');
  await page.getByLabel('Rehoming certificate number').fill(certificate.number);
  const upload = page.getByLabel('Upload your rehoming certificate');
  await upload.focus();
  await upload.setInputFiles(certificate.file);
  await expect(page.getByText(`Chosen: ${certificate.file.name}`)).toBeVisible();
}

test('rsp: a rehomed cat gets 28 days of free cover, by keyboard, with its email', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/rehoming?brand=rsp');
  await stepIs(page, 'Eligibility');
  await expect(page.getByRole('banner').getByRole('link', { name: /Rescue Steps Pets/ })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'rehoming-rsp-eligibility');
  await eligibility(page, 'Aire Valley Rehoming Centre, Leeds LS5 3XX');
  await press(page, page.getByRole('button', { name: 'Next' }));

  await expect(page).toHaveURL(/\/rehoming\/your-pet$/);
  await stepIs(page, 'Your pet');
  await expectAccessible(page);
  await yourPet(page, { number: 'AVR-20931', file: { name: 'certificate.png', mimeType: 'image/png', buffer: PNG } });
  await screenshot(page, testInfo, 'rehoming-rsp-your-pet');
  await press(page, page.getByRole('button', { name: 'Next' }));

  await expect(page).toHaveURL(/\/rehoming\/your-details$/);
  await stepIs(page, 'Your details');
  await expectAccessible(page);
  const email = `rehoming-${testInfo.project.name}-${Date.now()}@example.com`;
  await fillYourDetails(page);
  const box = page.getByLabel('Email address');
  await box.fill(email);
  await press(page, page.getByRole('button', { name: 'Next' }));

  await expect(page).toHaveURL(/\/rehoming\/confirmation$/);
  await stepIs(page, 'Confirmation');
  const check = page.getByRole('region', { name: 'Check your details' });
  await expect(check).toContainText('Aire Valley Rehoming Centre');
  await expect(check).toContainText('AVR-20931');
  await expect(check).toContainText(email);
  const cover = page.getByRole('region', { name: "What's covered" });
  await expect(cover).toContainText('28 days of cover');
  await expect(cover).toContainText('Vet fees up to £1,000 per condition');
  await expect(cover).toContainText('Excess of £99 per condition');
  await expect(cover).toContainText('This free cover does not include third party liability.');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'rehoming-rsp-check');
  await press(page, page.getByRole('button', { name: 'Activate my free cover' }));

  await expect(page.getByRole('heading', { name: 'Pip is covered' })).toBeVisible();
  const policy = page.getByText(/^PETRS\d+$/);
  await expect(policy).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `We've emailed your cover details to ${email}.` })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'rehoming-rsp-confirmation');
  // owner-payment.md §4 Analytics: the pages' submissions, and no purchase for free cover.
  type Pushed = { event: string; page?: string; tracking_id?: string };
  const layer = (await page.evaluate(() => (window as unknown as { dataLayer?: unknown[] }).dataLayer ?? [])) as Pushed[];
  expect(layer.filter((e) => e.event === 'submission').map((e) => e.page)).toEqual(['pet_details', 'user_details']);
  expect(layer.filter((e) => e.event === 'purchase' || e.event === 'transactionDetails')).toEqual([]);
  expect(layer.filter((e) => e.event === 'page_view').length).toBeGreaterThanOrEqual(4);
  const number = (await policy.textContent()) ?? '';
  const mail = await mailTo(email);
  expect(mail).toHaveLength(1);
  expect(mail[0].subject).toBe(`Your free rehoming cover for Pip: policy ${number}`);
  expect(mail[0].text).toContain('This free cover does not include third party liability.');

  // A reload keeps the confirmation, and asking for the email again sends no second one: the
  // page's ask answered, and everything written to the outbox by then delivered.
  const asked = page.waitForResponse((r) => r.url().endsWith('/api/confirmationRescueEmail'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Pip is covered' })).toBeVisible();
  expect((await asked).ok()).toBe(true);
  await outboxDelivered(page);
  expect(await mailTo(email, 2, 0)).toHaveLength(1);
  expect(problems()).toEqual([]);
});

test('rsp: the scanning warnings of owner-payment.md §6, word for word, and nothing issued until the document is right', async ({ page }, testInfo) => {
  await page.goto('/rehoming?brand=rsp');
  await eligibility(page, 'Harbourside Rescue Steps, Bristol BS1 6XX');
  await press(page, page.getByRole('button', { name: 'Next' }));
  // Named .png but not an image: the scanner finds the error (detail code 10107).
  await yourPet(page, { number: 'HRS-55120', file: { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('this is not really a picture') } });
  await press(page, page.getByRole('button', { name: 'Next' }));
  await fillYourDetails(page);
  await page.getByLabel('Email address').fill(`scan-${Date.now()}@example.com`);
  await press(page, page.getByRole('button', { name: 'Next' }));
  await expect(page).toHaveURL(/\/rehoming\/confirmation$/);
  await press(page, page.getByRole('button', { name: 'Activate my free cover' }));
  const warning = page.getByRole('alert').filter({ hasText: 'scanning tool' });
  await expect(warning).toContainText(
    'Our scanning tool has highlighted an error in one or more of your documents. Please go back to your pet details page and try again.',
  );
  await expect(warning).toBeFocused();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'rehoming-rsp-scan-error');

  // Back to the pet details, a real file, and the scanning service down (on test hosts a
  // SCANDOWN-101nn certificate number stands for the service answering that code).
  await press(page, warning.getByRole('link', { name: 'Go back to your pet details' }));
  await expect(page).toHaveURL(/\/rehoming\/your-pet$/);
  await page.getByLabel('Rehoming certificate number').fill('SCANDOWN-10109');
  const upload = page.getByLabel('Upload your rehoming certificate');
  await upload.setInputFiles({ name: 'certificate.png', mimeType: 'image/png', buffer: PNG });
  await press(page, page.getByRole('button', { name: 'Next' }));
  // Your details as given: on through them.
  await expect(page).toHaveURL(/\/rehoming\/your-details$/);
  await expect(page.getByLabel('First name')).toHaveValue('Ada');
  await press(page, page.getByRole('button', { name: 'Next' }));
  await expect(page).toHaveURL(/\/rehoming\/confirmation$/);
  await press(page, page.getByRole('button', { name: 'Activate my free cover' }));
  await expect(page.getByRole('alert').filter({ hasText: 'maintenance' })).toHaveText(
    'Our document scanning tool is down for maintenance; please try again later.',
  );
  await expect(page.getByRole('heading', { name: 'Pip is covered' })).toHaveCount(0);

  // The right number: activated.
  await page.getByRole('link', { name: 'Change Certificate number' }).click();
  await page.getByLabel('Rehoming certificate number').fill('HRS-55120');
  await page.getByLabel('Upload your rehoming certificate').setInputFiles({ name: 'certificate.png', mimeType: 'image/png', buffer: PNG });
  await press(page, page.getByRole('button', { name: 'Next' }));
  await press(page, page.getByRole('button', { name: 'Next' }));
  await expect(page).toHaveURL(/\/rehoming\/confirmation$/);
  await press(page, page.getByRole('button', { name: 'Activate my free cover' }));
  await expect(page.getByRole('heading', { name: 'Pip is covered' })).toBeVisible();
});

test('rehoming eligibility: blocking answers and the rehoming date rule show their messages', async ({ page }, testInfo) => {
  await page.goto('/rehoming?brand=pdsa');
  await expect(page.getByRole('heading', { level: 1, name: 'Free cover for your rehomed pet' })).toBeVisible();
  await chooseOptionByLabel(page, page.getByLabel('Which rehoming centre did your pet come from?'), 'Broadland Pet Rehoming, Norwich NR12 8XX');
  await typeDate(page, page.getByRole('group', { name: 'When did your pet come home with you?' }), daysAgo(30));
  await chooseRadio(page, page.getByRole('group', { name: 'Do you live in the UK?' }), 'No');
  await chooseRadio(page, page.getByRole('group', { name: 'Is your pet already insured?' }), 'No');
  await press(page, page.getByRole('button', { name: 'Next' }));
  // journeys/rehoming-centres.json: activation within 14 days of rehoming.
  await expect(page.getByText('Free cover must be activated within 14 days of rehoming your pet').first()).toBeVisible();
  await typeDate(page, page.getByRole('group', { name: 'When did your pet come home with you?' }), daysAgo(1));
  await press(page, page.getByRole('button', { name: 'Next' }));
  await expect(page.getByRole('alert').filter({ hasText: 'only available to people who live in the UK' })).toHaveText(
    'Sorry, free rehoming cover is only available to people who live in the UK.',
  );
  await expect(page).toHaveURL(/\/rehoming\/?(\?brand=pdsa)?$/);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'rehoming-pdsa-blocked');
});

test('a brand without the rehoming flow has no rehoming pages', async ({ page }, testInfo) => {
  await page.goto('/rehoming?brand=pos');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByLabel('Which rehoming centre did your pet come from?')).toHaveCount(0);
});

// The annual rehoming flow (journey.md §1 Extra flows, §2 Routes: annual rehoming /pet-details
// (1), /choose-product (2), /review (3), /payment, /payment-confirmation, /confirmation,
// /already-purchased, /policy-link-expired, /policy-terminated; owner-payment.md §9: rehoming
// annual excess £125 or 25%), started from the free policy's signed link.
test('rsp: the free policy\'s link buys a year\'s cover for the rehomed pet, by keyboard', async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const problems = watchConsole(page);
  await page.goto('/rehoming?brand=rsp');
  await eligibility(page, 'Aire Valley Rehoming Centre, Leeds LS5 3XX');
  await press(page, page.getByRole('button', { name: 'Next' }));
  await yourPet(page, { number: 'AVR-31107', file: { name: 'certificate.png', mimeType: 'image/png', buffer: PNG } });
  await press(page, page.getByRole('button', { name: 'Next' }));
  const email = `annual-${testInfo.project.name}-${Date.now()}@example.com`;
  await fillYourDetails(page);
  await page.getByLabel('Email address').fill(email);
  await press(page, page.getByRole('button', { name: 'Next' }));
  await press(page, page.getByRole('button', { name: 'Activate my free cover' }));
  await expect(page.getByRole('heading', { name: 'Pip is covered' })).toBeVisible();

  // The free cover's email and its page carry the same link.
  const annual = page.getByRole('region', { name: 'Keep Pip covered after the free cover ends' });
  await expect(annual).toContainText('Annual rehoming cover has a £125 excess and you pay 25% of the rest of each claim.');
  const link = annual.getByRole('link', { name: 'Choose annual cover' });
  const href = (await link.getAttribute('href')) ?? '';
  expect(href).toMatch(/^\/annual-rehoming\/start\/[\w-]+\.[\w-]+$/);
  const mail = await mailTo(email);
  expect(mail[0].text).toContain(href);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'annual-rehoming-rsp-rescue-link');
  await press(page, link);

  // 1: the pet's details, from the free policy, to check and complete.
  await expect(page).toHaveURL(/\/annual-rehoming\/pet-details\?brand=rsp$/);
  await stepIs(page, 'Your pet');
  await expect(page.getByRole('heading', { level: 1, name: "Check your pet's details" })).toBeVisible();
  await expect(page.getByLabel("What is your pet's name?")).toHaveValue('Pip');
  await expect(page.getByRole('button', { name: 'Add another pet' })).toHaveCount(0);
  await chooseRadio(page, page.getByRole('group', { name: /^Has .+ had any injury or illness\?$/ }), 'No');
  await press(page, page.getByRole('checkbox', { name: "I didn't pay anything" }), 'Space');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'annual-rehoming-rsp-pet-details');
  await press(page, page.getByRole('button', { name: 'Next' }));

  // 2: the cover, every product with the annual rehoming excess.
  await expect(page).toHaveURL(/\/annual-rehoming\/choose-product$/);
  await stepIs(page, 'Choose cover');
  await lifetime4000ByKeyboard(page, 'Pip');
  await chooseTab(page, page.getByRole('tablist', { name: "Choose Pip's cover" }), /Excess/);
  await expect(page.getByText('Excess', { exact: false }).filter({ hasText: '£125' }).first()).toBeVisible();
  await expect(page.getByText(/Claim contribution \(percentage excess\): 25%/)).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'annual-rehoming-rsp-choose-product');
  await press(page, page.getByRole('button', { name: 'Continue' }));

  // 3: review, then payment by Direct Debit.
  await expect(page).toHaveURL(/\/annual-rehoming\/review$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Review your quote' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'annual-rehoming-rsp-review');
  await press(page, page.getByRole('button', { name: 'Continue' }));
  await expect(page).toHaveURL(/\/annual-rehoming\/payment$/);
  await typeInto(page, page.getByLabel('Account holder name'), 'Ada ONeill');
  await typeInto(page, page.getByLabel('Sort code digits 1 of 3'), '089999');
  await typeInto(page, page.getByLabel('Account number'), '66374958');
  await chooseOption(page, page.getByLabel('Preferred collection day'), '15');
  await press(page, page.getByRole('checkbox', { name: /I confirm authority to create this Direct Debit agreement/ }), 'Space');
  await expectAccessible(page);
  await press(page, page.getByRole('button', { name: 'Confirm payment' }));
  await expect(page).toHaveURL(/\/annual-rehoming\/payment-confirmation$/);
  await expectAccessible(page);
  await press(page, page.getByRole('button', { name: 'Continue' }));
  await expect(page).toHaveURL(/\/annual-rehoming\/confirmation$/);
  const region = page.getByRole('region', { name: 'Pip' });
  await expect(region).toContainText(/PETRS\d{7}/);
  type Pushed = { event: string; page?: string; journey?: string };
  const layer = (await page.evaluate(() => (window as unknown as { dataLayer?: unknown[] }).dataLayer ?? [])) as Pushed[];
  const bought = layer.filter((e) => e.journey === 'annual_rehoming');
  expect(bought.filter((e) => e.event === 'submission').map((e) => e.page)).toEqual(['pet_details', 'review', 'payment', 'confirmation']);
  expect(bought.filter((e) => e.event === 'purchase')).toHaveLength(1);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'annual-rehoming-rsp-confirmation');

  // The link again: already bought.
  await page.goto(href);
  await expect(page).toHaveURL(/\/annual-rehoming\/already-purchased\?brand=rsp$/);
  await expect(page.getByRole('heading', { level: 1, name: "You've already bought this cover" })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Your progress' })).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'annual-rehoming-rsp-already-purchased');

  // Someone without the link: the expired-link page, never a form.
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const stranger = await context.newPage();
  await stranger.goto('/annual-rehoming/pet-details?brand=rsp');
  await expect(stranger.getByRole('heading', { level: 1, name: 'This link has expired' })).toBeVisible();
  await expect(stranger.getByRole('main').getByRole('link', { name: /Call us on 0808 157/ })).toBeVisible();
  await expect(stranger.getByRole('textbox')).toHaveCount(0);
  await expectAccessible(stranger);
  await screenshot(stranger, testInfo, 'annual-rehoming-rsp-link-expired');
  await context.close();
  expect(problems()).toEqual([]);
});
