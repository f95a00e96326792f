import { expect, type Locator, type Page } from '@playwright/test';

// Keyboard alone (WCAG 2.1.1): the customer moves with Tab, types, and uses Space, Enter and the
// arrow keys; nothing here clicks or fills. Each helper fails when its target cannot be reached
// by Tab, which is the point of using them.

async function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));
}

/** Presses Tab until `target` (or something inside it) has the focus; at most `max` presses. */
export async function tabTo(page: Page, target: Locator, max = 120) {
  await expect(target).toBeVisible();
  // A control the page is about to enable (choose policy's Continue, once the benefits are in
  // view; a button while its call is out) is given a moment, as a customer waits, rather than
  // tabbed past and around the whole page on a busy machine. One the customer's own Tabs will
  // enable (by bringing the benefits into view) is then tabbed to as before.
  if (await target.isDisabled().catch(() => false)) await expect(target).toBeEnabled({ timeout: 3_000 }).catch(() => undefined);
  for (let i = 0; i < max; i++) {
    if (await hasFocus(target)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${target} cannot be reached with Tab in ${max} presses`);
}

/** Tabs to a box and types into it. */
export async function typeInto(page: Page, target: Locator, text: string) {
  await tabTo(page, target);
  await page.keyboard.type(text);
}

/** Tabs to a control and presses a key on it (Space for a tick box, Enter for a button or link). */
export async function press(page: Page, target: Locator, key = 'Enter') {
  await tabTo(page, target);
  await page.keyboard.press(key);
}

/** Tabs into a radio group and moves with the arrow keys until `name` is chosen. */
export async function chooseRadio(page: Page, group: Locator, name: string | RegExp) {
  await tabTo(page, group);
  const wanted = group.getByRole('radio', { name, exact: typeof name === 'string' });
  const count = await group.getByRole('radio').count();
  for (let i = 0; i <= count; i++) {
    if (await wanted.isChecked()) return;
    if (await hasFocus(wanted)) {
      await page.keyboard.press('Space');
      continue;
    }
    await page.keyboard.press('ArrowRight');
  }
  await expect(wanted).toBeChecked();
}

/** Tabs to a select and types the start of an option, as a keyboard user picks one. */
export async function chooseOption(page: Page, select: Locator, label: string) {
  await tabTo(page, select);
  await page.keyboard.type(label);
  await expect(select).toHaveValue(label);
}

/** As chooseOption, for a select whose values are codes: the option shown is `label`. */
export async function chooseOptionByLabel(page: Page, select: Locator, label: string) {
  await tabTo(page, select);
  await page.keyboard.type(label);
  await expect(select.locator('option:checked')).toHaveText(label);
}

/** Tabs into a tab list (only its current tab is in the Tab order) and arrows to `name`. */
export async function chooseTab(page: Page, tablist: Locator, name: string | RegExp) {
  await tabTo(page, tablist);
  const wanted = tablist.getByRole('tab', { name });
  const count = await tablist.getByRole('tab').count();
  for (let i = 0; i < count && (await wanted.getAttribute('aria-selected')) !== 'true'; i++) await page.keyboard.press('ArrowRight');
  await expect(wanted).toHaveAttribute('aria-selected', 'true');
}
