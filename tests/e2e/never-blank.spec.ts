import { expect, test } from '@playwright/test';

import { expectAccessible, screenshot } from './support';

// A step this renderer cannot draw keeps the brand's frame and
// tells the customer what to do, with the quote reference and the brand's phone number, and the
// page reports the failure to the server (POST /api/render-errors, logged and counted). The step
// here is the first page with a question drawn by a widget this renderer has never heard of.

test('a step the renderer cannot draw keeps the frame and gives the phone number and the quote reference', async ({ page }, testInfo) => {
  let reference = '';
  page.on('response', async (r) => {
    if (r.url().includes('/api/view?path=')) reference = (await r.json()).data.qidu;
  });
  // The page's form (its schema and words) as a server would send it whose definitions name a
  // widget this renderer lacks (`pawpath check` would refuse them; the page must still cope).
  await page.route('**/quote/definitions/*/questions/**', async (route) => {
    const response = await route.fetch();
    const form = await response.json();
    form.ui.pets.items.pet_name['ui:widget'] = 'neverSeen';
    // The answer as sent, its body changed and no longer compressed.
    const headers = response.headers();
    delete headers['content-encoding'];
    delete headers['content-length'];
    await route.fulfill({ status: response.status(), headers, body: JSON.stringify(form) });
  });
  const reported = page.waitForResponse((r) => r.url().endsWith('/api/render-errors'));
  await page.goto('/quote?brand=pos');
  await expect(page.getByRole('heading', { level: 1, name: "Sorry, we can't show this page" })).toBeVisible();
  expect(reference).not.toBe('');
  await expect(page.getByRole('alert')).toContainText(`Please call us on 0808 157 0000 and give your quote reference, ${reference}`);
  // The brand's frame is still there: its header with the phone number, and its footer.
  await expect(page.getByRole('banner').getByRole('link', { name: 'Call us on 0808 157 0000' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('Pawpath Insurance Services Limited');
  expect((await reported).status()).toBe(204);
  await expectAccessible(page);
  await screenshot(page, testInfo, 'never-blank');
});
