// The first page measured as a customer on a poor phone meets it: Debian's Chromium over the DevTools protocol,
// a mobile viewport, cold cache, CPU slowed 4×, network as slow 4G (150 ms round trip, 1.6 Mbit/s
// down, 750 kbit/s up). Median of five loads of /quote?brand=pos: largest contentful paint, the
// form usable (its first field drawn and enabled), bytes and requests. Then a returning visit
// (the same browser, cache kept): script and stylesheet bytes fetched. Then a priced two-pet quote
// at choose policy: time from an excess change to its new price on the screen. Then typing on the
// first page (CPU slowed 4×): each keystroke in the pet's name and in the breed box, from the key
// to the next paint (the Event Timing API's duration, as Interaction to Next Paint counts it).
//
//   node tests/perf/phone.mjs            starts target/release/pawpath on a fresh SQLite database
//   PAWPATH_BINARY=… PAWPATH_PERF_RUNS=5 CHROMIUM_PATH=/usr/bin/chromium
//
// It prints figures; it asserts nothing (speed is measured, not tested).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const binary = process.env.PAWPATH_BINARY ?? join(root, 'target', 'release', 'pawpath');
const runs = Number(process.env.PAWPATH_PERF_RUNS ?? 5);
const port = 18400 + Math.floor(Math.random() * 500);
const base = `http://127.0.0.1:${port}`;
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8), uploadThroughput: (750e3 / 8) };
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 2.625, isMobile: true, hasTouch: true };

const data = mkdtempSync(join(tmpdir(), 'pawpath-phone-'));
const server = spawn(binary, [], {
  env: {
    ...process.env,
    PORT: String(port),
    PAWPATH_DATA_DIR: data,
    DATABASE_URL: `sqlite://${data}/pawpath.sqlite?mode=rwc`,
    PAWPATH_DEFINITIONS: root,
    PAWPATH_STATIC_DIR: join(root, 'renderer', 'dist'),
    RUST_LOG: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stop = () => {
  server.kill();
  rmSync(data, { recursive: true, force: true });
};
process.on('exit', stop);

async function ready() {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${binary} did not answer /healthz`);
}

// Recorded in the page from its first byte: the largest contentful paint so far, and when the
// form's first field was drawn, enabled (performance.now(), from the navigation's start).
const observe = () => {
  window.__perf = { lcp: 0, usable: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__perf.lcp = e.startTime;
      const el = e.element;
      window.__perf.lcpElement = el ? `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ')[0]}` : ''} (${e.size} px²)` : '?';
    }
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const check = () => {
    const field = document.querySelector('main form input:not([type=hidden]):not([disabled])');
    if (field && !window.__perf.usable) window.__perf.usable = performance.now();
    return Boolean(field);
  };
  new MutationObserver((_, o) => check() && o.disconnect()).observe(document, { childList: true, subtree: true });
};

/** A page with the phone's CPU and network, counting what comes over the network. */
async function slowPage(context) {
  const page = await context.newPage();
  await page.addInitScript(observe);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const requests = new Map();
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId) ?? {};
    requests.set(e.requestId, { ...r, url: e.response.url, type: e.type, cached: e.response.fromDiskCache || e.response.fromPrefetchCache, status: e.response.status });
  });
  cdp.on('Network.requestServedFromCache', (e) => requests.set(e.requestId, { ...(requests.get(e.requestId) ?? {}), cached: true }));
  cdp.on('Network.loadingFinished', (e) => requests.set(e.requestId, { ...(requests.get(e.requestId) ?? {}), bytes: e.encodedDataLength }));
  return { page, cdp, requests };
}

function sum(requests, filter = () => true) {
  const fetched = [...requests.values()].filter((r) => r.url && !r.cached && filter(r));
  return { bytes: fetched.reduce((t, r) => t + (r.bytes ?? 0), 0), count: fetched.length, files: fetched.map((r) => `${r.status} ${new URL(r.url).pathname}`) };
}

async function firstPage(context) {
  const { page, requests } = await slowPage(context);
  await page.goto(`${base}/quote?brand=pos`);
  await page.waitForFunction(() => window.__perf.usable > 0, null, { timeout: 60_000 });
  // The largest paint is final once the page is quiet.
  await page.waitForLoadState('networkidle');
  const perf = await page.evaluate(() => window.__perf);
  await page.close();
  return { ...perf, ...sum(requests) };
}

async function excessChange(browser) {
  const context = await browser.newContext(PHONE);
  const request = context.request;
  const view = await (await request.get(`${base}/quote?brand=pos`, { headers: { Accept: 'application/json' } })).json();
  const csrf = view.data.csrf;
  const answers = JSON.parse(readFileSync(join(root, 'tests', 'flows', '_answers.json'), 'utf8'));
  const today = new Date();
  const born = (days) => new Date(today.getTime() - days * 86_400_000).toISOString().slice(0, 10);
  const pets = [
    { ...answers.dog, pet_name: 'Rex', pet_date_of_birth: born(700) },
    { ...answers.cat, pet_name: 'Tigger', pet_date_of_birth: born(730) },
  ];
  const petsSaved = await request.post(`${base}/api/petdetails`, { data: { csrf, pets } });
  if (!petsSaved.ok()) throw new Error(`pets: ${petsSaved.status()} ${await petsSaved.text()}`);
  const owner = await request.post(`${base}/api/ownerdetail`, { data: { csrf, owner: answers.owner } });
  if (!owner.ok()) throw new Error(`owner: ${owner.status()} ${await owner.text()}`);
  const { page } = await slowPage(context);
  await page.goto(`${base}/quote/choose-policy`);
  await page.getByRole('tab', { name: /Excess/ }).click();
  const bar = page.getByRole('region', { name: "Rex's price" });
  const before = await bar.textContent();
  const radio = page.getByRole('radio', { name: '£199' });
  await radio.waitFor();
  const started = await page.evaluate(() => performance.now());
  await radio.click();
  const region = await bar.elementHandle();
  await page.waitForFunction(([el, old]) => el.textContent !== old, [region, before], { polling: 'raf', timeout: 30_000 });
  const shown = await page.evaluate(() => performance.now());
  await context.close();
  return shown - started;
}

/** Types a pet's name and a breed search on the first page; each keystroke's key-to-paint time. */
async function typing(browser) {
  const context = await browser.newContext(PHONE);
  const { page } = await slowPage(context);
  await page.goto(`${base}/quote?brand=pos`);
  await page.waitForFunction(() => window.__perf.usable > 0, null, { timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => {
    window.__keys = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'keydown' || e.name === 'keypress' || e.name === 'keyup') window.__keys.push({ name: e.name, id: e.interactionId, duration: e.duration });
    }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  });
  const perKey = async (keys) => {
    await page.evaluate(() => {
      window.__keys = [];
    });
    for (const key of keys) {
      await page.keyboard.type(key);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    await page.waitForTimeout(300);
    // An interaction's time is its longest event (a key's down, press and up are one interaction).
    const byInteraction = new Map();
    for (const e of await page.evaluate(() => window.__keys)) byInteraction.set(e.id, Math.max(byInteraction.get(e.id) ?? 0, e.duration));
    // Events under 16 ms are not reported: those keys took less (counted as 16).
    const times = [...byInteraction.values()];
    while (times.length < keys.length) times.push(16);
    return times;
  };
  await page.getByLabel("What is your pet's name?").click();
  const name = await perKey([...'Biscuit']);
  await page.getByRole('radio', { name: 'Dog', exact: true }).click();
  await page.getByRole('radio', { name: 'Pedigree', exact: true }).click();
  await page.getByRole('combobox', { name: /^What breed is .+\?$/ }).click();
  const breed = await perKey([...'labrador']);
  await context.close();
  return { name, breed };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await ready();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  timeout: 60_000,
});
// Warm the server (its first answers build caches); not measured.
{
  const context = await browser.newContext(PHONE);
  await (await context.newPage()).goto(`${base}/quote?brand=pos`);
  await context.close();
}
const cold = [];
let returning = null;
for (let i = 0; i < runs; i++) {
  const context = await browser.newContext(PHONE);
  cold.push(await firstPage(context));
  if (i === 0) {
    // A returning visit: the same browser and cache, the page opened again.
    const { page, requests } = await slowPage(context);
    await page.goto(`${base}/quote?brand=pos`);
    await page.waitForFunction(() => window.__perf.usable > 0, null, { timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    returning = { all: sum(requests), code: sum(requests, (r) => r.type === 'Script' || r.type === 'Stylesheet') };
  }
  await context.close();
}
const changes = [];
for (let i = 0; i < runs; i++) changes.push(await excessChange(browser));
const typed = { name: [], breed: [] };
for (let i = 0; i < runs; i++) {
  const t = await typing(browser);
  typed.name.push(...t.name);
  typed.breed.push(...t.breed);
}
await browser.close();

const kb = (b) => `${(b / 1000).toFixed(1)} KB`;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log(`First page, /quote?brand=pos: mobile viewport, cold cache, CPU 4× slower, slow 4G; median of ${runs}`);
console.log(`  largest contentful paint  ${s(median(cold.map((r) => r.lcp)))}   (each: ${cold.map((r) => s(r.lcp)).join(', ')})`);
console.log(`  largest element           ${cold[0].lcpElement}`);
console.log(`  form usable               ${s(median(cold.map((r) => r.usable)))}   (each: ${cold.map((r) => s(r.usable)).join(', ')})`);
console.log(`  transferred               ${kb(median(cold.map((r) => r.bytes)))} in ${median(cold.map((r) => r.count))} requests`);
for (const f of cold[0].files) console.log(`    ${f}`);
console.log(`Returning visit (cache kept): ${kb(returning.all.bytes)} in ${returning.all.count} requests; script and stylesheet: ${returning.code.bytes} B in ${returning.code.count} requests`);
for (const f of returning.all.files) console.log(`    ${f}`);
console.log(`Excess change on choose policy (priced two-pet quote) to its new price on screen: median ${s(median(changes))} (each: ${changes.map(s).join(', ')})`);
const ms = (x) => `${Math.round(x)} ms`;
const worst = (xs) => Math.max(...xs);
console.log(`Typing on the first page (CPU 4× slower), key to next paint over ${runs} runs:`);
console.log(`  pet's name   median ${ms(median(typed.name))}, worst ${ms(worst(typed.name))} (${typed.name.length} keys)`);
console.log(`  breed box    median ${ms(median(typed.breed))}, worst ${ms(worst(typed.breed))} (${typed.breed.length} keys)`);
