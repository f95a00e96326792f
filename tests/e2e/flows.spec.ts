import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect, type Page, test } from '@playwright/test';

import { expectAccessible, stubTagManagers } from './support';

// ptp names a tag manager; no test reaches the internet.
test.beforeEach(async ({ page }) => stubTagManagers(page));

// QA's scripted flows (tests/flows/), the same files server/tests/api/flows.rs runs against
// the API, driven through the browser: each flow's quote lives in a real browser session (its
// cookie, the page's CSRF token, the Content-Security-Policy); its answers are sent by the page
// itself, as the renderer's API client sends them; after each answer the browser opens the page
// the server moved the customer to and must show it (its heading, its blocking messages), and the
// last page is checked with axe.

type Expect = {
  status?: number;
  step?: string;
  errors?: Array<{ field: string; message: string }>;
  blocks?: string[];
  prices?: Record<string, [string, string]>;
  not_offered?: string[];
};
type Step = { open?: string; call?: string; answers?: Record<string, unknown>; expect?: Expect };
type Flow = { description: string; spec: string; brand: string; channel: 'direct' | 'aggregator'; flow?: 'rehoming'; language?: string; steps: Step[] };

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'flows');
const sets = JSON.parse(readFileSync(join(dir, '_answers.json'), 'utf8')) as Record<string, Record<string, unknown>>;
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.json') && !f.startsWith('_') && f !== 'flow.schema.json')
  .sort()
  .map((file) => ({ file, flow: JSON.parse(readFileSync(join(dir, file), 'utf8')) as Flow }));

/**
 * Every flow runs against the API (server/tests/api/flows.rs); the browser draws a sample: the
 * longest flow of each journey, channel, brand and language, and every flow that ends on a
 * blocking message (the page must show it). A flow added to tests/flows joins the sample when it
 * is the longest of its kind or blocks.
 */
function sampled(): { file: string; flow: Flow }[] {
  const kind = (f: Flow) => [f.flow ?? 'direct', f.channel, f.brand, f.language ?? ''].join(' ');
  const longest = new Map<string, { file: string; flow: Flow }>();
  for (const entry of all) {
    const held = longest.get(kind(entry.flow));
    if (!held || entry.flow.steps.length > held.flow.steps.length) longest.set(kind(entry.flow), entry);
  }
  const blocks = all.filter(({ flow }) => flow.steps.some((s) => (s.expect?.blocks ?? []).length > 0));
  const chosen = new Set([...longest.values(), ...blocks].map((e) => e.file));
  return all.filter((e) => chosen.has(e.file));
}

/** Today in the UK, as YYYY-MM-DD, moved by `days`. */
function ukDate(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** An expected message's "{uk:today+30}": that UK date as the pages write it, DD/MM/YYYY. */
function expandMessage(text: string): string {
  return text.replace(/\{uk:today([+-]\d+)?\}/g, (_, days: string | undefined) => {
    const [y, m, d] = ukDate(Number(days ?? 0)).split('-');
    return `${d}/${m}/${y}`;
  });
}

/** Named answer sets and relative dates, as the Rust runner expands them. */
function expand(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(expand);
  if (typeof value === 'string') {
    const m = /^\{today([+-]\d+)?\}$/.exec(value);
    return m ? ukDate(Number(m[1] ?? 0)) : value;
  }
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.$use === 'string') {
      const base = structuredClone(sets[o.$use]);
      if (!base) throw new Error(`no answer set ${o.$use}`);
      for (const [k, v] of Object.entries((o.set ?? {}) as Record<string, unknown>)) base[k] = expand(v);
      return base;
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, expand(v)]));
  }
  return value;
}

/** The view data of the page the browser is on, through the browser's own session. */
async function viewOf(page: Page, path: string): Promise<Record<string, any>> {
  return page.evaluate(async (p) => {
    const r = await fetch(p, { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    return (await r.json()).data;
  }, path);
}

/** Opens the page the server says the customer is on, and checks the browser draws it. */
async function showsStep(page: Page, data: Record<string, any>) {
  await page.goto(data.step.path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(data.step.title);
  for (const b of (data.step.blocks ?? []) as Array<{ message: string | null }>) {
    if (b.message) await expect(page.getByText(b.message).first()).toBeVisible();
  }
}

for (const { file, flow } of sampled()) {
  test(`${file}: ${flow.description} (${flow.spec})`, async ({ page }, testInfo) => {
    const base = flow.flow === 'rehoming' ? '/rehoming' : flow.channel === 'aggregator' ? '/aggregators/quote' : '/quote';
    await page.goto(`${base}?brand=${flow.brand}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    let path = new URL(page.url()).pathname;
    if (flow.language) {
      const csrf = (await viewOf(page, path)).csrf as string;
      const status = await page.evaluate(
        async ([language, token]) =>
          (await fetch('/api/language', { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, credentials: 'same-origin', body: JSON.stringify({ csrf: token, language }) })).status,
        [flow.language, csrf],
      );
      expect(status).toBe(200);
    }
    for (const [i, step] of flow.steps.entries()) {
      const want = step.expect ?? {};
      let status: number;
      let data: Record<string, any>;
      let errors: Array<{ field: string; message: string }> = [];
      if (step.open) {
        await page.goto(step.open);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        data = await viewOf(page, step.open);
        status = 200;
      } else {
        const csrf = (await viewOf(page, path)).csrf as string;
        const answer = await page.evaluate(
          async ([call, body]) => {
            const r = await fetch(call as string, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, credentials: 'same-origin', body: JSON.stringify(body) });
            return { status: r.status, json: await r.json().catch(() => null) };
          },
          [step.call, { ...(expand(step.answers) as object), csrf, locale: 'en-GB' }],
        );
        status = answer.status;
        data = answer.json?.data ?? {};
        errors = answer.json?.errors ?? [];
      }
      expect(status, `step ${i}: status`).toBe(want.status ?? 200);
      if (want.step) expect(data.step?.id, `step ${i}: the step`).toBe(want.step);
      for (const e of want.errors ?? []) expect(errors, `step ${i}: field errors`).toContainEqual({ ...e, message: expandMessage(e.message) });
      for (const code of Object.keys(want.prices ?? {})) {
        const [low, high] = want.prices![code].map(Number);
        const product = (data.products ?? []).find((p: any) => p.Code === code && p.petid === 1);
        expect(product, `step ${i}: ${code} offered`).toBeTruthy();
        const monthly = Number(product.RecurringMonthly);
        expect(monthly >= low && monthly <= high, `step ${i}: ${code} at ${monthly} a month`).toBe(true);
      }
      for (const code of want.not_offered ?? []) expect((data.products ?? []).some((p: any) => p.Code === code && p.petid === 1)).toBe(false);
      if (status === 200 && data.step) {
        for (const b of want.blocks ?? []) expect((data.step.blocks ?? []).map((x: any) => x.message), `step ${i}: blocks`).toContain(b);
        await showsStep(page, data);
        path = data.step.path;
      }
    }
    await expectAccessible(page);
  });
}
