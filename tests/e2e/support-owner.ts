import { expect, type Page } from '@playwright/test';

/**
 * Fills /your-details as a customer would with the keyboard: every box typed, the title chosen
 * with the arrow keys, the address found through the modern search (house number and postcode).
 */
export async function fillYourDetails(page: Page, address: { house: string; postcode: string } = { house: '12', postcode: 'bs11 8nn' }) {
  await expect(page.getByRole('heading', { level: 1, name: 'Your details' })).toBeVisible();
  const title = page.getByRole('group', { name: 'Title' });
  await title.getByRole('radio', { name: 'Mr', exact: true }).focus();
  await page.keyboard.press('ArrowRight'); // Miss
  await page.keyboard.press('ArrowRight'); // Dr
  await page.keyboard.press('ArrowRight'); // Ms
  await expect(title.getByRole('radio', { name: 'Ms', exact: true })).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('First name')).toBeFocused();
  await page.keyboard.type('Ada');
  await page.keyboard.press('Tab');
  await page.keyboard.type("O'Neill-Smith");
  await page.keyboard.press('Tab');
  await page.keyboard.type('27031985'); // the boxes move on when full
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Email address')).toBeFocused();
  await page.keyboard.type(' Ada@Example.com ');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Email address')).toHaveValue('ada@example.com');
  // The quote reminder opt-out, asked where the email address is given: left unticked.
  await expect(page.getByRole('checkbox', { name: "Don't send me quote reminders" })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Phone number')).toBeFocused();
  await page.keyboard.type('01632960123');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('House name or number')).toBeFocused();
  await page.keyboard.type(address.house);
  await page.keyboard.press('Tab');
  await page.keyboard.type(address.postcode);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('group', { name: 'Your address' }).locator('address')).toContainText('BS11 8NN');
}
