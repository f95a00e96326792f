/**
 * The journey's pages filled in by keyboard alone (a purchase by keyboard
 * from /quote to /confirmation), shared by the purchase tests of each way to pay.
 */
import { expect, type Page } from '@playwright/test';

import { chooseOption, chooseRadio, chooseTab, press, typeInto } from './support-keys';
import { EN, type Words } from './support-words';

export type Pet = { name: string; species: string; type: string; breed?: [string, string] };

export async function petByKeyboard(page: Page, index: number, pet: Pet, w: Words = EN) {
  const section = page.locator('section.pet').nth(index);
  await typeInto(page, section.getByLabel(w.petName), pet.name);
  await chooseRadio(page, section.getByRole('group', { name: w.species }), pet.species);
  await chooseRadio(page, section.getByRole('group', { name: w.petType }), pet.type);
  if (pet.breed) {
    const box = section.getByRole('combobox', { name: w.breed });
    await typeInto(page, box, pet.breed[0]);
    await expect(page.getByRole('option', { name: pet.breed[1], exact: true })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(box).toHaveValue(pet.breed[1]);
  }
  await typeInto(page, section.getByRole('textbox', { name: w.day }), '01022023'); // the boxes move on
  await expect(section.getByRole('textbox', { name: w.year })).toHaveValue('2023');
  await chooseRadio(page, section.getByRole('group', { name: w.sex }), w.male);
  await chooseRadio(page, section.getByRole('group', { name: w.neutered }), w.yes);
  await chooseRadio(page, section.getByRole('group', { name: w.injury }), w.no);
  await press(page, section.getByRole('checkbox', { name: w.nothingPaid }), 'Space');
}

export async function detailsByKeyboard(page: Page, email: string, w: Words = EN) {
  await expect(page.getByRole('heading', { level: 1, name: w.detailsHeading })).toBeVisible();
  await chooseRadio(page, page.getByRole('group', { name: w.title }), w.ms);
  await typeInto(page, page.getByLabel(w.firstName), 'Ada');
  await typeInto(page, page.getByLabel(w.lastName, { exact: true }), "O'Neill-Smith");
  await typeInto(page, page.getByRole('group', { name: w.ownerDob }).getByRole('textbox', { name: w.day }), '27031985');
  await typeInto(page, page.getByLabel(w.email), email);
  await typeInto(page, page.getByLabel(w.phone), '01632960123');
  await typeInto(page, page.getByLabel(w.house), '12');
  await page.keyboard.press('Tab');
  await page.keyboard.type('bs11 8nn');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('group', { name: w.address }).locator('address')).toContainText('BS11 8NN');
}

/** One pet's cover by keyboard on the cover page: Lifetime (through the guide where shown), £4,000. */
export async function lifetime4000ByKeyboard(page: Page, name: string, w: Words = EN) {
  await expect(page.getByRole('heading', { name: w.coverHeading(name) })).toBeVisible();
  const guide = page.getByRole('group', { name: w.guideLongShort });
  if ((await guide.count()) > 0) {
    await chooseRadio(page, guide, w.yes);
    await chooseRadio(page, page.getByRole('group', { name: w.guideEveryYear }), w.yes);
  } else if ((await page.getByRole('button', { name: `${w.selected} – ${w.lifetime}` }).count()) === 0) {
    await press(page, page.getByRole('button', { name: `${w.chooseType} – ${w.lifetime}` }));
  }
  await chooseTab(page, page.getByRole('tablist', { name: w.coverHeading(name) }), w.levelTab);
  const level = page.getByRole('button', { name: `${w.select} – ${w.limit4000}`, exact: true });
  if ((await page.getByRole('button', { name: `${w.selected} – ${w.limit4000}`, exact: true }).count()) === 0) await press(page, level);
  await expect(page.getByRole('button', { name: `${w.selected} – ${w.limit4000}`, exact: true })).toBeVisible();
}

export async function coverByKeyboard(page: Page, names: string[], w: Words = EN) {
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  for (const [i, name] of names.entries()) {
    await lifetime4000ByKeyboard(page, name, w);
    const last = i === names.length - 1;
    await press(page, page.getByRole('button', { name: last ? w.continue : w.nextPet(names[i + 1]) }));
  }
  await expect(page).toHaveURL(/\/quote\/review$/);
}


/** The payment page's Direct Debit form, filled in by keyboard (a valid test account). */
export async function directDebitByKeyboard(page: Page, w: Words = EN) {
  await expect(page).toHaveURL(/\/quote\/payment$/);
  await typeInto(page, page.getByLabel(w.accountName), 'Ada ONeill');
  await typeInto(page, page.getByLabel(w.sortCode1), '089999');
  await typeInto(page, page.getByLabel(w.accountNumber, { exact: true }), '66374958');
  await chooseOption(page, page.getByLabel(w.collectionDay), '15');
  await press(page, page.getByRole('checkbox', { name: w.ddConfirm }), 'Space');
}

/**
 * One beagle, Rex, on the brand given, from the first page to the payment page by keyboard alone
 * (the card payers' way in: epw takes cards), with card chosen as the way to pay when `card`.
 */
export async function toPaymentByKeyboard(page: Page, brand: string, email: string, card = true) {
  await page.goto(`/quote?brand=${brand}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await petByKeyboard(page, 0, { name: 'Rex', species: 'Dog', type: 'Pedigree', breed: ['beag', 'Beagle'] });
  await press(page, page.getByRole('button', { name: 'Next' }));
  await detailsByKeyboard(page, email);
  await press(page, page.getByRole('button', { name: 'Next' }));
  await coverByKeyboard(page, ['Rex']);
  await press(page, page.getByRole('button', { name: 'Continue' }));
  await expect(page).toHaveURL(/\/quote\/assumptions$/);
  await press(page, page.getByRole('checkbox', { name: /Yes, they're correct/ }), 'Space');
  await press(page, page.getByRole('button', { name: 'Go to payment' }));
  await expect(page).toHaveURL(/\/quote\/payment$/);
  if (card) await chooseRadio(page, page.getByRole('group', { name: 'How would you like to pay?' }), 'Debit or credit card');
}
