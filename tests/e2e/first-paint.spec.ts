import { expect, type Page, test } from '@playwright/test';

import { axeViolations, expectAccessible, screenshot, watchConsole } from './support';

// The frame (skip link, header, footer) is in the HTML, so the first paint needs only
// the HTML and the stylesheets. It must be the frame React draws (renderer/src/features/shell/
// Frame.tsx), or the page would change under the customer when the script arrives. These compare
// the two, for an English brand, a French brand that speaks two languages, and a static page.

const PAGES = [
  { name: 'pos, the first page', path: '/quote?brand=pos', heading: 'Your pets' },
  { name: 'rcfr, the first page in French', path: '/quote?brand=rcfr', heading: 'Vos animaux' },
  { name: 'pos, the contact page', path: '/quote/contact-and-faqs?brand=pos', heading: null },
  // Before the cookie choice: the banner is in the HTML too, first on the page.
  { name: 'ptp, the first page before the cookie choice', path: '/quote?brand=ptp', heading: 'Your pets', unchosen: true },
];

/** The frame's markup: the cookie banner, the skip link, the header without the language chooser
 * (which needs a quote to keep the choice, so is not in the HTML) and the footer. */
async function frameMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const header = document.querySelector('header.header')?.cloneNode(true) as HTMLElement | undefined;
    header?.querySelector('nav.languages')?.remove();
    return [document.querySelector('.cookie-banner')?.outerHTML ?? 'no banner', document.querySelector('a.skip-link')?.outerHTML ?? 'no skip link', header?.outerHTML ?? 'no header', document.querySelector('footer.footer')?.outerHTML ?? 'no footer'];
  });
}

for (const p of PAGES) {
  test(`${p.name}: the HTML's frame is the one React draws`, async ({ page }, testInfo) => {
    // The script never arrives: what is on screen is the HTML's alone.
    await page.route('**/quote/assets/*.js', (route) => route.abort());
    if ('unchosen' in p) await page.context().clearCookies();
    await page.goto(p.path);
    // The trading disclosures (the brand's firm) are in the HTML's own frame.
    await expect(page.getByRole('contentinfo')).toContainText(/is a trading name of|est un nom commercial de/);
    await expect(page.getByRole('contentinfo')).toContainText(/firm reference number|numéro de référence/);
    const drawnByServer = await frameMarkup(page);
    expect(drawnByServer[3]).toContain('footer__links');
    if ('unchosen' in p) expect(drawnByServer[0]).toContain('Reject analytics cookies');
    await screenshot(page, testInfo, `first-paint-${p.path.includes('contact') ? 'contact' : p.path.split('brand=')[1]}`);
    await expectAccessible(page);

    const scripted = await page.context().newPage();
    const problems = watchConsole(scripted);
    await scripted.goto(p.path);
    if (p.heading) await expect(scripted.getByRole('heading', { level: 1, name: p.heading })).toBeVisible();
    else await expect(scripted.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await frameMarkup(scripted)).toEqual(drawnByServer);
    expect(problems()).toEqual([]);
  });
}

// The check every page passes can fail: on a page with an unlabelled image, a field without a
// label and grey on grey, it names each (run as the suite runs it, in the page itself).
test('the accessibility check finds what it should', async ({ page }) => {
  test.skip(test.info().project.name === 'mobile', 'the check is the same at every width');
  await page.setContent(`<!doctype html><html lang="en"><head><title>Broken</title></head><body><main>
    <h1>Broken</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
    <input type="text"><p style="color:#999;background:#aaa">Hard to read</p></main></body></html>`);
  const found = (await axeViolations(page)).map((v) => v.split(':')[0]);
  expect(found).toEqual(expect.arrayContaining(['image-alt', 'label', 'color-contrast']));
});
