import { expect, type Page, test } from '@playwright/test';

import { expectAccessible, screenshot, watchConsole } from './support';
import { fillYourDetails } from './support-owner';

// owner-payment.md §2 /your-details and the address search, §5 Owner and Address search, §8
// Address and policy, in a browser.

async function aCatSaved(page: Page) {
  await page.goto('/quote');
  await page.getByLabel("What is your pet's name?").fill('Tigger');
  await page.getByRole('radio', { name: 'Cat', exact: true }).check();
  await page.getByRole('radio', { name: 'Moggie', exact: true }).check();
  await page.getByRole('textbox', { name: 'Day' }).fill('01');
  await page.getByRole('textbox', { name: 'Month' }).fill('02');
  await page.getByRole('textbox', { name: 'Year' }).fill('2023');
  await page.getByRole('radio', { name: 'Male', exact: true }).check();
  await page.getByRole('group', { name: /^Has .+ been neutered\?$/ }).getByRole('radio', { name: 'Yes' }).check();
  await page.getByRole('group', { name: /^Has .+ had any injury or illness\?$/ }).getByRole('radio', { name: 'No' }).check();
  await page.getByRole('checkbox', { name: "I didn't pay anything" }).check();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/your-details$/);
}

test('a new customer fills in their details by keyboard, finds the address and arrives at choose policy', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await aCatSaved(page);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'your-details-empty');
  // Next with nothing: the spec's messages, the summary, focus on the first field.
  await page.getByRole('button', { name: 'Next' }).click();
  const summary = page.getByRole('alert').filter({ hasText: 'Please Check the following fields:' });
  await expect(summary).toContainText('Your address – Please search and add your address');
  await expect(page.getByRole('radio', { name: 'Mr', exact: true })).toBeFocused();

  await fillYourDetails(page);
  // Found, it is said where it is shown, which takes the focus; no toast over the questions after it.
  const found = page.getByRole('group', { name: 'Your address' }).locator('.address-chosen');
  await expect(found).toContainText('We found your address.');
  await expect(found).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'We found your address.' })).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Email' }).focus();
  await page.keyboard.press('Space');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'your-details-filled');
  await page.getByRole('button', { name: 'Next' }).focus();
  await page.keyboard.press('Enter');
  // journey.md §2: the owner's postcode opens the choose-policy step.
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  await expect(page.getByRole('link', { name: /Your details/ })).toBeVisible();
  expect(problems()).toEqual([]);
});

// An address not found is said at the field with the way on; only there, no
// toast over the postcode box; a search that then finds it clears that and says so beside it.
test('an address not found says so at the field, with the way on; finding it clears that', async ({ page }, testInfo) => {
  await aCatSaved(page);
  const address = page.getByRole('group', { name: 'Your address' });
  const house = address.getByLabel('House name or number');
  await house.fill('999');
  await address.getByLabel('Postcode').fill('BS11 8NN');
  await address.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(address).toContainText('We could not find your address.');
  await expect(page.getByRole('alert').filter({ hasText: 'Error: We could not find your address.' })).toHaveCount(0);
  await expect(house).toHaveAccessibleDescription(/We could not find your address\./);
  await expect(address.getByRole('button', { name: 'Enter your address manually' })).toHaveCount(1);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'address-not-found');
  await house.fill('12');
  await address.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(address.locator('address')).toContainText('BS11 8NN');
  await expect(address).not.toContainText('We could not find your address.');
  await expect(address.locator('.address-chosen')).toContainText('We found your address.');
  await expect(address.locator('.address-chosen')).toBeFocused();
  // The way on, when the search cannot find it: the boxes to type it in.
  await address.getByRole('button', { name: 'Search again' }).click();
  await house.fill('999');
  await address.getByRole('button', { name: 'Search', exact: true }).click();
  await address.getByRole('button', { name: 'Enter your address manually' }).click();
  await expect(address.getByLabel('Address line 1')).toBeVisible();
});

test('the legacy postcode search, its messages, and manual entry', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await aCatSaved(page);
  const address = page.getByRole('group', { name: 'Your address' });
  // The modern search needs both boxes (owner-payment.md §5, §8).
  await address.getByLabel('Postcode').fill('BS11 8NN');
  await address.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(address).toContainText('Please enter your house name/number and postcode to search for your address.');
  await address.getByLabel('House name or number').fill('999');
  await address.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(address).toContainText('We could not find your address.');

  await address.getByRole('button', { name: 'Search by postcode only' }).click();
  const postcode = address.getByLabel('Postcode');
  await postcode.fill('');
  await postcode.press('Enter');
  await expect(address).toContainText('Postcode required for address search');
  await postcode.fill('BS11 8N!');
  await postcode.press('Enter');
  await expect(address).toContainText('Invalid postcode');
  await expect(page.getByRole('alert').filter({ hasText: 'Please enter a valid postcode to search for your address.' })).toHaveCount(0);
  await postcode.fill('BS99 9ZZ');
  await postcode.press('Enter');
  await expect(address).toContainText('No results found for that postcode.');
  await postcode.fill('bs11 8nn');
  await address.getByRole('button', { name: 'Find address' }).click();
  const select = address.getByLabel('Select your address');
  await expect(select).toBeFocused();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'legacy-search');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(address.locator('address')).toContainText('BS11 8NN');

  // Edit the found address by hand; a postcode that is not a UK one is refused.
  await address.getByRole('button', { name: 'Edit address' }).click();
  await address.getByLabel('Address line 2 (optional)').fill('Shirehampton');
  await address.getByLabel('Postcode').fill('BS11 8N');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please Check the following fields:' })).toContainText('Please enter a valid postcode');
  await screenshot(page, testInfo, 'manual-entry');
  expect(problems()).toEqual([]);
});

test('one valid and one invalid promo code, a Nectar card and a branch code', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await aCatSaved(page);
  await fillYourDetails(page);

  // An invalid code: cleared, the failure toast, the modal closes (owner-payment.md §4, §8).
  await page.getByRole('button', { name: 'Add a promo code' }).click();
  const promo = page.getByRole('dialog', { name: 'Add a promo code' });
  await expect(promo.getByLabel('Promo code')).toBeFocused();
  await page.keyboard.type('NOPE123');
  await page.keyboard.press('Enter');
  await expect(promo).toBeHidden();
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid promocode: An invalid promo code has been entered' })).toBeVisible();

  // A valid code: kept, the toast shows the promotion, the button becomes Edit.
  await page.getByRole('button', { name: 'Add a promo code' }).click();
  await expect(promo.getByLabel('Promo code')).toHaveValue('');
  await promo.getByLabel('Promo code').fill('welcome10');
  await expectAccessible(page);
  await screenshot(page, testInfo, 'promo-modal');
  await promo.getByRole('button', { name: 'Save and close' }).click();
  await expect(promo).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Success: 10% off your first year: Welcome offer: 10% off your premium for the first year.' })).toBeVisible();
  await expect(page.getByText('Promo code WELCOME10 applied')).toBeVisible();
  // What the customer typed on the page is still there.
  await expect(page.getByLabel('First name')).toHaveValue('Ada');

  // A Nectar promotion asks for the card before the modal closes.
  await page.getByRole('button', { name: 'Edit promo code' }).click();
  await promo.getByLabel('Promo code').fill('NECTAR500');
  await promo.getByRole('button', { name: 'Save and close' }).click();
  const card = promo.getByLabel('Nectar card number');
  await expect(card).toBeFocused();
  await expect(promo).toContainText('Please enter a valid Nectar card number. This is the last 11 digits on the front of your Nectar card.');
  await page.keyboard.type('12345678900'); // a wrong check digit
  await page.keyboard.press('Enter');
  await expect(promo).toContainText('Please enter a valid Nectar card number.');
  await card.fill('12345678909');
  await screenshot(page, testInfo, 'nectar');
  await page.keyboard.press('Enter');
  await expect(promo).toBeHidden();
  // owner-payment.md §8 Promo and Nectar: both successes, the promotion's and the card's.
  await expect(
    page.getByRole('status').filter({ hasText: 'Success: 500 Nectar points: Collect 500 Nectar points when you buy your policy. Your Nectar card has been added successfully.' }),
  ).toBeVisible();

  // A branch code, trimmed when saved; Cancel keeps the previous value.
  await page.getByRole('button', { name: 'Add a referral or branch code' }).click();
  const referral = page.getByRole('dialog', { name: 'Add a referral or branch code' });
  await referral.getByLabel('Referral or branch code').fill('AB-1');
  await referral.getByRole('button', { name: 'Save and close' }).click();
  await expect(referral).toContainText('This field cannot contain special characters');
  await referral.getByLabel('Referral or branch code').fill('  BR 12 ');
  await referral.getByRole('button', { name: 'Save and close' }).click();
  await expect(referral).toBeHidden();
  await expect(page.getByText('Your referral or branch code BR 12 has been added.')).toBeVisible();
  await page.getByRole('button', { name: 'Edit referral or branch code' }).click();
  await referral.getByLabel('Referral or branch code').fill('ZZZ');
  await referral.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Your referral or branch code BR 12 has been added.')).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'codes-added');

  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);

  // Back on your details, an existing policy (owner-payment.md §5, §8): not found, then found,
  // which stops name and address editing.
  await page.getByRole('link', { name: /Your details/ }).click();
  await page.getByRole('button', { name: 'Add an existing policy' }).click();
  const policy = page.getByRole('dialog', { name: 'Add an existing policy' });
  await policy.getByLabel('Existing policy number').fill('PETPS9999999');
  await policy.getByRole('button', { name: 'Check policy' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Policy not found: We could not find your policy number.' })).toBeVisible();
  await expect(policy).toContainText('does not exist or does not match your details');
  await policy.getByLabel('Existing policy number').fill('petps0012345');
  await policy.getByRole('button', { name: 'Check policy' }).click();
  await expect(policy).toBeHidden();
  await expect(page.getByText('We found your policy PETPS0012345.')).toBeVisible();
  await expect(page.getByLabel('First name')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Edit address' })).toHaveCount(0);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'existing-policy');
  expect(problems()).toEqual([]);
});

// owner-payment.md §5 Owner (phone: digits only, 9 to 12, starting 0), a number as
// people type it is read as its digits when the box is left, and the server stores those.
test('phone numbers as people type them are taken', async ({ page }) => {
  await aCatSaved(page);
  await fillYourDetails(page);
  const phone = page.getByLabel('Phone number');
  for (const [typed, digits] of [
    ['+44 7700 900123', '07700900123'],
    ['(01632) 960123', '01632960123'],
    ['07700 900123', '07700900123'],
  ]) {
    await phone.fill(typed);
    await phone.press('Tab');
    await expect(phone).toHaveValue(digits);
  }
  // Something that is not a phone number is left as typed, and the spec's message names it.
  await phone.fill('call me');
  await phone.press('Tab');
  await expect(phone).toHaveValue('call me');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please Check the following fields:' })).toContainText('Phone number');
  await phone.fill('+44 (0)1632 960123');
  await phone.press('Tab');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/choose-policy$/);
  const view = await page.request.get('/quote/your-details', { headers: { Accept: 'application/json' } });
  expect((await view.json()).data.owner.customer_contact_number).toBe('01632960123');
});
