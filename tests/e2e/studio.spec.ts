import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

import { expect, test } from '@playwright/test';

import { binary, dataDir } from '../playwright.config';
import { expectAccessible, screenshot } from './support';

// The studio's door (named staff, a session of their own, no script on its pages), by keyboard
// alone: a member made with `pawpath staff add` signs in, is told a wrong password plainly,
// sees their role, and signs out.

const PASSWORD = 'correct horse battery staple';

function addStaff(email: string, role: string) {
  execFileSync(binary, ['staff', 'add', '--email', email, '--name', 'Ada Lovelace', '--role', role], {
    input: `${PASSWORD}\n`,
    env: {
      ...process.env,
      DATABASE_URL: `sqlite://${join(dataDir, 'e2e.db')}?mode=rwc`,
      PAWPATH_DATA_DIR: dataDir,
      PAWPATH_DEFINITIONS: '..',
    },
  });
}

test('a member of staff signs in and out of the studio by keyboard alone', async ({ page }, testInfo) => {
  const email = `ada-${testInfo.project.name}@example.com`;
  addStaff(email, 'editor');
  await page.goto('/studio');
  await expect(page).toHaveURL(/\/studio\/sign-in$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the studio' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'studio-sign-in');

  // A wrong password: the form again, saying so, the address kept.
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Email address')).toBeFocused();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type('not the password at all');
  await page.keyboard.press('Enter');
  const problem = page.getByRole('alert');
  await expect(problem).toContainText('That email address and password do not match an account that may sign in.');
  await expect(page).toHaveTitle(/^Error: /);
  await expect(page.getByLabel('Email address')).toHaveValue(email);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'studio-sign-in-error');

  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/studio$/);
  await expect(page.getByRole('heading', { level: 1, name: 'The journeys' })).toBeVisible();
  await expect(page.getByText(`Ada Lovelace (${email}), editor`)).toBeVisible();
  await expect(page.getByRole('rowheader', { name: 'direct' })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'studio-home');

  // A journey's steps and diagram, one link away.
  await page.getByRole('link', { name: 'direct', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'The direct journey' })).toBeVisible();
  await expect(page.getByRole('img', { name: /The direct journey as a diagram/ })).toBeVisible();
  await expectAccessible(page);
  await screenshot(page, testInfo, 'studio-journey');
  await page.goto('/studio');

  // Sign out: the first thing a Tab reaches.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/studio\/sign-in$/);
  await page.goto('/studio');
  await expect(page).toHaveURL(/\/studio\/sign-in$/);
});
