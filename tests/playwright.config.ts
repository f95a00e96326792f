import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

import { adminToken, metricsToken } from './admin-token';

// Browser tests run against the real pawpath binary on a fresh SQLite database, serving the
// built renderer, in Debian's Chromium (never a downloaded browser).
const port = Number(process.env.PAWPATH_E2E_PORT ?? 18181);
// The same folder in the runner and its workers (they inherit its environment): the studio's spec
// adds accounts to this server's database with `pawpath staff add`.
export const dataDir = (process.env.PAWPATH_E2E_DATA ??= mkdtempSync(join(tmpdir(), 'pawpath-e2e-')));
export const binary = process.env.PAWPATH_BIN ?? '../target/debug/pawpath';
const renderer = '../renderer/dist';
// The local SMTP server the confirmation emails go to, and its HTTP window for the tests.
const smtpPort = port + 5;
const mailboxPort = port + 6;
// The local fake of Stripe's API (tests/fake-stripe.mjs), and the server that takes cards through
// it (3-D Secure), for tests/e2e/card-3ds.spec.ts.
const fakeStripePort = port + 7;
export const stripePort = port + 2;


/**
 * Every brand's cookie banner already answered "Reject": the specs about the journey
 * start where a customer is once they have chosen. tests/e2e/consent.spec.ts starts from no
 * choice, and the specs that read the data layer accept (support.ts acceptAnalytics).
 */
const brands = readdirSync('../journeys/brands').filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, ''));
export const rejectedEverywhere = {
  cookies: brands.map((brand) => ({ name: `pawpath_consent_${brand}`, value: 'denied', domain: '127.0.0.1', path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' as const })),
  origins: [],
};

/** The specs that also run at phone width: layout, the first paint, modals, one purchase, and a product team's edits walked to a purchase. */
const PHONE_SPECS = /(brands|card-3ds|consent|cover-screen|definitions-edit|first-paint|address-lookup|friction|nothing-lost|price-named|purchase|retrieve-link|review-check|timeout)\.spec\.ts$/;

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Each test makes its own quote in a browser context of its own, so tests run side by side:
  // two workers on the two-core CI machine (PAWPATH_E2E_WORKERS to choose). A spec whose tests
  // depend on one another says so with test.describe.configure({ mode: 'serial' }).
  workers: Number(process.env.PAWPATH_E2E_WORKERS ?? 2),
  fullyParallel: true,
  // Whole journeys by keyboard on a two-core CI machine: a purchase of two pets takes about half a
  // minute there, so the default 30 s per test and 5 s per expectation leave no margin. These
  // are limits on hanging, not measures of speed (speed is measured by the benchmarks).
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    storageState: rejectedEverywhere,
    // A trace records every action's snapshots, which costs a CPU-bound two-core run about a
    // quarter of its time: kept for failures on a developer's machine, off in CI (a failing spec
    // is run again locally, where its trace is kept).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [
    { name: 'desktop', use: { browserName: 'chromium', viewport: { width: 1280, height: 900 } } },
    // At 375 px, the specs about layout (what fits, what sticks, what a thumb reaches) and one
    // keyboard purchase; what a page says and does is the same at every width and runs once.
    { name: 'mobile', testMatch: PHONE_SPECS, use: { browserName: 'chromium', viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true } },
    // After both widths have run: /metrics as Prometheus would scrape it.
    { name: 'metrics', testMatch: /\.teardown\.ts$/, dependencies: ['desktop', 'mobile'] },
  ],
  webServer: [
    {
      command: 'node smtp-sink.mjs',
      url: `http://127.0.0.1:${mailboxPort}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { SMTP_PORT: String(smtpPort), HTTP_PORT: String(mailboxPort) },
    },
    {
      command: binary,
      // Ready: the database answers and is migrated (/healthz only says the process is up).
      url: `http://127.0.0.1:${port}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(port),
        PAWPATH_DATA_DIR: dataDir,
        PAWPATH_DEFINITIONS: '..',
        PAWPATH_STATIC_DIR: renderer,
        PAWPATH_LOG_FORMAT: 'pretty',
        // QA's scripted flows choose an experiment's variation through the test-data call.
        PAWPATH_TEST_MODE: '1',
        // Every browser test comes from 127.0.0.1: the per-address lookup budget is a test host's.
        PAWPATH_LOOKUPS_PER_ADDRESS: '10000000',
        PAWPATH_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        PAWPATH_MAIL_FROM: 'policies@pawpath.invalid',
        PAWPATH_MAIL_RETRY_MS: '500',
        // The staff pages (the internal funnel) open with this token as a Basic password.
        PAWPATH_ADMIN_TOKEN: adminToken,
        // /metrics, for the scrape after the suite (e2e/metrics.teardown.ts).
        PAWPATH_METRICS_TOKEN: metricsToken,
        DATABASE_URL: `sqlite://${join(dataDir, 'e2e.db')}?mode=rwc`,
      },
    },
    {
      command: 'node fake-stripe.mjs',
      url: `http://127.0.0.1:${fakeStripePort}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: {
        PORT: String(fakeStripePort),
        SECRET_KEY: 'sk_test_pawpath',
        PUBLISHABLE_KEY: 'pk_test_pawpath',
        WEBHOOK_SECRET: 'whsec_pawpath_test',
        WEBHOOK_URL: `http://127.0.0.1:${stripePort}/payments/webhook`,
      },
    },
    // A server that takes cards through Stripe's API (the fake above), with 3-D Secure.
    {
      command: binary,
      url: `http://127.0.0.1:${stripePort}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        PORT: String(stripePort),
        PAWPATH_DATA_DIR: `${dataDir}-stripe`,
        PAWPATH_DEFINITIONS: '..',
        PAWPATH_STATIC_DIR: renderer,
        PAWPATH_LOG_FORMAT: 'pretty',
        PAWPATH_LOOKUPS_PER_ADDRESS: '10000000',
        PAWPATH_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        PAWPATH_MAIL_FROM: 'policies@pawpath.invalid',
        PAWPATH_PUBLIC_URL: `http://127.0.0.1:${stripePort}`,
        PAWPATH_PAYMENT_PROVIDER: 'stripe',
        PAWPATH_STRIPE_SECRET_KEY: 'sk_test_pawpath',
        PAWPATH_STRIPE_PUBLISHABLE_KEY: 'pk_test_pawpath',
        PAWPATH_STRIPE_WEBHOOK_SECRET: 'whsec_pawpath_test',
        PAWPATH_STRIPE_API_URL: `http://127.0.0.1:${fakeStripePort}`,
        PAWPATH_STRIPE_JS_URL: `http://127.0.0.1:${fakeStripePort}/v3/`,
        DATABASE_URL: `sqlite://${join(`${dataDir}-stripe`, 'e2e.db')}?mode=rwc`,
      },
    },
  ],
});
