/**
 * The journey's pages filled in by keyboard alone (issue 6 "Done when": a purchase by keyboard
 * from /quote to /confirmation), shared by the purchase tests of each way to pay.
 */
import { expect, type Page } from '@playwright/test';

import { chooseOption, chooseRadio, chooseTab, press, typeInto } from './support-keys';

export type Pet = { name: string; species: 'Dog' | 'Cat'; type: string; breed?: [string, string] };

export async function petByKeyboard(page: Page, index: number, pet: Pet) {
  const section = page.locator('section.pet').nth(index);
  await typeInto(page, section.getByLabel("What is your pet's name?"), pet.name);
  await chooseRadio(page, section.getByRole('group', { name: /^Is your pet a dog(, cat or rabbit| or cat)\?$/ }), pet.species);
  await chooseRadio(page, section.getByRole('group', { name: /What type of (dog|cat) is it\?/ }), pet.type);
  if (pet.breed) {
    const box = section.getByRole('combobox', { name: 'What breed is your pet?' });
    await typeInto(page, box, pet.breed[0]);
    await expect(page.getByRole('option', { name: pet.breed[1], exact: true })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(box).toHaveValue(pet.breed[1]);
  }
  await typeInto(page, section.getByRole('textbox', { name: 'Day' }), '01022023'); // the boxes move on
  await expect(section.getByRole('textbox', { name: 'Year' })).toHaveValue('2023');
  await chooseRadio(page, section.getByRole('group', { name: 'Is your pet male or female?' }), 'Male');
  await chooseRadio(page, section.getByRole('group', { name: 'Has your pet been neutered?' }), 'Yes');
  await chooseRadio(page, section.getByRole('group', { name: 'Has your pet had any injury or illness?' }), 'No');
  await press(page, section.getByRole('checkbox', { name: "I didn't pay anything" }), 'Space');
}

export async function detailsByKeyboard(page: Page, email: string) {
  await expect(page.getByRole('heading', { level: 1, name: 'Your details' })).toBeVisible();
  await chooseRadio(page, page.getByRole('group', { name: 'Title' }), 'Ms');
  await typeInto(page, page.getByLabel('First name'), 'Ada');
  await typeInto(page, page.getByLabel('Last name'), "O'Neill-Smith");
  await typeInto(page, page.getByRole('group', { name: /date of birth/i }).getByRole('textbox', { name: 'Day' }), '27031985');
  await typeInto(page, page.getByLabel('Email address'), email);
  await typeInto(page, page.getByLabel('Phone number'), '01632960123');
  await typeInto(page, page.getByLabel('House name or number'), '12');
  await page.keyboard.press('Tab');
  await page.keyboard.type('bs11 8nn');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('group', { name: 'Your address' }).locator('address')).toContainText('BS11 8NN');
}

/** One pet's cover by keyboard on the cover page: Lifetime (through the guide where shown), £4,000. */
export async function lifetime4000ByKeyboard(page: Page, name: string) {
  await expect(page.getByRole('heading', { name: `Choose ${name}'s cover` })).toBeVisible();
  const guide = page.getByRole('group', { name: 'Do you want cover for short-term and long-term ongoing conditions?' });
  if ((await guide.count()) > 0) {
    await chooseRadio(page, guide, 'Yes');
    await chooseRadio(page, page.getByRole('group', { name: 'Do you want to cover ongoing conditions every year?' }), 'Yes');
  } else if ((await page.getByRole('button', { name: 'Selected – Lifetime' }).count()) === 0) {
    await press(page, page.getByRole('button', { name: 'Choose cover level – Lifetime' }));
  }
  await chooseTab(page, page.getByRole('tablist', { name: `Choose ${name}'s cover` }), /Cover level/);
  const level = page.getByRole('button', { name: /^Select(ed)? – £4,000$/ });
  if ((await page.getByRole('button', { name: 'Selected – £4,000' }).count()) === 0) await press(page, level);
  await expect(page.getByRole('button', { name: 'Selected – £4,000' })).toBeVisible();
}

export async function coverByKeyboard(page: Page, names: string[]) {
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  for (const [i, name] of names.entries()) {
    await lifetime4000ByKeyboard(page, name);
    const last = i === names.length - 1;
    await press(page, page.getByRole('button', { name: last ? 'Continue' : `Next: ${names[i + 1]}'s cover` }));
  }
  await expect(page).toHaveURL(/\/quote\/review$/);
}


/** The payment page's Direct Debit form, filled in by keyboard (a valid test account). */
export async function directDebitByKeyboard(page: Page) {
  await expect(page).toHaveURL(/\/quote\/payment$/);
  await typeInto(page, page.getByLabel('Account holder name'), 'Ada ONeill');
  await typeInto(page, page.getByLabel('Sort code digits 1 of 3'), '089999');
  await typeInto(page, page.getByLabel('Account number'), '66374958');
  await chooseOption(page, page.getByLabel('Preferred collection day'), '15');
  await press(page, page.getByRole('checkbox', { name: /I confirm authority to create this Direct Debit agreement/ }), 'Space');
}
