import { expect, type Locator, type Page } from '@playwright/test';

/** Fills the questions every pet has, after its species and breed. */
export async function fillTheRest(page: Page, name: string) {
  await page.getByRole('textbox', { name: 'Day' }).fill('15');
  await page.getByRole('textbox', { name: 'Month' }).fill('06');
  await page.getByRole('textbox', { name: 'Year' }).fill('2022');
  await page.getByRole('radio', { name: 'Female' }).check();
  await page.getByRole('group', { name: /^Has .+ been neutered\?$/ }).getByRole('radio', { name: 'Yes' }).check();
  await page.getByRole('group', { name: /^Has .+ had any injury or illness\?$/ }).getByRole('radio', { name: 'No' }).check();
  await page.getByLabel(/^How much did you pay for .+\?$/).fill('300');
  await expect(page.getByLabel("What is your pet's name?")).toHaveValue(name);
}

/** Chooses a breed in the search by typing and picking it with the keyboard. */
export async function chooseBreed(page: Page, typed: string, breed: string) {
  const box = page.getByRole('combobox', { name: /^What breed is .+\?$/ });
  await box.click();
  await box.pressSequentially(typed);
  const option = page.getByRole('option', { name: breed, exact: true });
  await expect(option).toBeVisible();
  // Arrow down to it, announcing as it goes.
  const options = await page.getByRole('option').allTextContents();
  for (let i = 0; i <= options.indexOf(breed); i++) await box.press('ArrowDown');
  await box.press('Enter');
  await expect(box).toHaveValue(breed);
}

/** On /quote, describes Rex, a male neutered Beagle born 01/02/2023 with no injury or illness, and goes on. */
export async function describeRexAndGoOn(page: Page) {
  await describeRex(page);
  await page.getByRole('button', { name: 'Next' }).click();
}

/** On /quote, describes Rex, a male neutered Beagle born 01/02/2023 with no injury or illness. */
export async function describeRex(page: Page) {
  await page.getByLabel("What is your pet's name?").fill('Rex');
  await page.getByRole('radio', { name: 'Dog', exact: true }).check();
  await page.getByRole('radio', { name: 'Pedigree', exact: true }).check();
  // The breed box opens once the breed lists are in (asked for at low priority beside the page).
  const breed = page.getByRole('combobox', { name: /^What breed is .+\?$/ });
  await expect(breed).toBeEnabled();
  await breed.pressSequentially('beag');
  await page.getByRole('option', { name: 'Beagle', exact: true }).click();
  await page.getByRole('textbox', { name: 'Day' }).fill('01');
  await page.getByRole('textbox', { name: 'Month' }).fill('02');
  await page.getByRole('textbox', { name: 'Year' }).fill('2023');
  await page.getByRole('radio', { name: 'Male', exact: true }).check();
  await page.getByRole('group', { name: /^Has .+ been neutered\?$/ }).getByRole('radio', { name: 'Yes' }).check();
  await page.getByRole('group', { name: /^Has .+ had any injury or illness\?$/ }).getByRole('radio', { name: 'No' }).check();
  await page.getByRole('checkbox', { name: "I didn't pay anything" }).check();
}

/**
 * In a pet's section of the pets page, describes Tigger: a female neutered Moggie born 15/06/2022
 * with no injury or illness, who cost nothing.
 */
export async function describeTigger(section: Locator) {
  await section.getByLabel("What is your pet's name?").fill('Tigger');
  await section.getByRole('radio', { name: 'Cat', exact: true }).check();
  await section.getByRole('radio', { name: 'Moggie', exact: true }).check();
  await section.getByRole('textbox', { name: 'Day' }).fill('15');
  await section.getByRole('textbox', { name: 'Month' }).fill('06');
  await section.getByRole('textbox', { name: 'Year' }).fill('2022');
  await section.getByRole('radio', { name: 'Female', exact: true }).check();
  await section.getByRole('group', { name: /^Has .+ been neutered\?$/ }).getByRole('radio', { name: 'Yes' }).check();
  await section.getByRole('group', { name: /^Has .+ had any injury or illness\?$/ }).getByRole('radio', { name: 'No' }).check();
  await section.getByRole('checkbox', { name: "I didn't pay anything" }).check();
}
