import { expect, test } from '@playwright/test';

import { expectAccessible, screenshot, watchConsole } from './support';
import { describeTigger } from './support-pets';

// The address lookup on the details page (owner-payment.md §8 Address and policy), at
// 1280 px and at 375 px: Enter in the postcode box finds the address, which is said where it is
// shown and takes the focus, with no toast over the questions after it; an address not found is
// said at the search only.

test('a found address takes the focus with no toast; one not found is said at the search only', async ({ page }, testInfo) => {
  const problems = watchConsole(page);
  await page.goto('/quote?brand=pos');
  await describeTigger(page.locator('section.pet').first());
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/quote\/your-details$/);

  const address = page.getByRole('group', { name: 'Your address' });
  const house = address.getByLabel('House name or number');
  const postcode = address.getByLabel('Postcode');
  await house.fill('999');
  await postcode.fill('BS11 8NN');
  await postcode.press('Enter');
  await expect(address).toContainText('We could not find your address.');
  await expect(page.getByRole('alert').filter({ hasText: 'We could not find your address.' })).toHaveCount(0);
  await expect(postcode).toBeFocused();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'address-not-found-inline');

  await house.fill('12');
  await postcode.press('Enter');
  const found = address.locator('.address-chosen');
  await expect(found).toContainText('We found your address.');
  await expect(found).toContainText('BS11 8NN');
  await expect(found).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'We found your address.' })).toHaveCount(0);
  // Nothing lies over the questions after it: the email tick box is the topmost thing at its middle.
  const email = page.getByRole('checkbox', { name: 'Email' });
  await email.scrollIntoViewIfNeeded();
  const box = (await page.getByText('Email', { exact: true }).first().boundingBox())!;
  const onTop = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('label, .choice__option, .checkbox') !== null, [box.x + box.width / 2, box.y + box.height / 2]);
  expect(onTop).toBe(true);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'address-found-focused');
  expect(problems()).toEqual([]);
});
