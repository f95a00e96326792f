import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

import { metricsToken } from '../admin-token';

/**
 * axe-core's WCAG 2.2 AA violations on the page as it is now, one line each.
 *
 * Run in the page itself (legacy mode): the default opens a blank page for every check to gather
 * the results of cross-origin frames, and the journey has no frames; that page and the passing
 * nodes' results (only violations are asked for) were two thirds of each check's time.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // options() replaces every option, so it comes before withTags() (which sets runOnly).
  const results = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .setLegacyMode(true)
    .analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** axe-core finds no WCAG 2.2 AA violation on the page as it is now. */
export async function expectAccessible(page: Page) {
  expect(await axeViolations(page), 'axe-core WCAG 2.2 AA violations').toEqual([]);
}

/**
 * A full-page screenshot saved with the test output, for people to look at: taken on a
 * developer's machine, and in CI only when PAWPATH_SCREENSHOTS=1 asks (a screenshot checks
 * nothing, and CI's 160 of them cost about a minute of its two cores).
 */
export async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  if (process.env.CI && process.env.PAWPATH_SCREENSHOTS !== '1') return;
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Collects Content-Security-Policy violations and page errors; the test ends with none. */
export function watchConsole(page: Page): () => string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  return () => problems;
}

export function ymd(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The messages the local SMTP server has received (tests/smtp-sink.mjs), parsed. */
export async function mailbox(): Promise<Array<{ to: string[]; subject: string; from: string; text: string; html: string }>> {
  const { simpleParser } = await import('mailparser');
  const port = Number(process.env.PAWPATH_E2E_PORT ?? 18181) + 6;
  const raw = (await (await fetch(`http://127.0.0.1:${port}/messages`)).json()) as Array<{ to: string[]; data: string }>;
  return Promise.all(
    raw.map(async (m) => {
      const parsed = await simpleParser(m.data);
      return { to: m.to, subject: parsed.subject ?? '', from: `${parsed.from?.value[0]?.name ?? ''} <${parsed.from?.value[0]?.address ?? ''}>`, text: parsed.text ?? '', html: typeof parsed.html === 'string' ? parsed.html : '' };
    }),
  );
}

/** Waits for the messages to one address, up to `ms`. */
export async function mailTo(address: string, count = 1, ms = 15_000) {
  const until = Date.now() + ms;
  for (;;) {
    const got = (await mailbox()).filter((m) => m.to.includes(`<${address}>`));
    if (got.length >= count || Date.now() > until) return got;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Waits until every email the server has written to its outbox so far is delivered (the outbox
 * empty, as /metrics reads it): an email the page's last request caused is in the mailbox by
 * then, or was never written. What proves that no second email was sent, without a clock.
 */
export async function outboxDelivered(page: Page) {
  await expect
    .poll(
      async () => {
        const scrape = await page.request.get('/metrics', { headers: { Authorization: `Bearer ${metricsToken}` } });
        return /^pawpath_outbox_depth 0$/m.test(await scrape.text());
      },
      { intervals: [50, 100, 200], timeout: 15_000 },
    )
    .toBe(true);
}

/** Test mode's test-data call: the quote is shown this variation of the cover type experiment. */
export async function showVariation(page: Page, variation: 'tiles' | 'guide') {
  // The page has its session first, so the call below is made on the same quote.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const view = await page.request.get('/quote', { headers: { Accept: 'application/json' } });
  const csrf = (await view.json()).data.csrf as string;
  const patched = await page.request.post('/api/test/patch', { data: { csrf, experiments: { cover_type_guide: variation } } });
  expect(patched.status()).toBe(200);
}

/**
 * A brand's tag manager, once the customer accepts analytics cookies, is loaded from the
 * internet, which no test reaches: an empty stand-in is served at its address instead.
 */
export async function stubTagManagers(page: Page) {
  await page.route('https://www.googletagmanager.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }));
}

/**
 * The customer has accepted analytics cookies on every brand (the suite starts from "Reject",
 * playwright.config.ts): the page fills its data layer and loads the (stand-in) tag manager.
 */
export async function acceptAnalytics(page: Page) {
  const cookies = (await page.context().cookies()).filter((c) => c.name.startsWith('pawpath_consent_'));
  await page.context().addCookies(cookies.map((c) => ({ ...c, value: 'granted' })));
  await stubTagManagers(page);
}
