import { execFileSync } from 'node:child_process';

import { expect, test } from '@playwright/test';

import { expectAccessible, stubTagManagers, watchConsole } from './support';

// A sample of the generated paths (`pawpath paths`) in the browser: for each journey,
// the longest path that buys where one does, once for each set of page addresses the brands use. Its calls are sent as the pages send them, with the browser's own session and
// CSRF token, and after each one the page it leads to is drawn by the renderer: its heading
// shows, nothing fails in the console, and the last page passes axe. Every generated path runs
// against the API in server/tests/api/paths_api.rs; this shows that what they reach draws.

type Call = { call: string; body: Record<string, unknown>; step: string; page: string; outcome: string };
type Path = { id: string; brand: string; start: string; calls: Call[]; ends: string };
type Generated = { journey: string; brand: string; paths: Path[] };

const binary = process.env.PAWPATH_BIN ?? '../target/debug/pawpath';

function generated(journey: string): Generated[] {
  const out = execFileSync(binary, ['paths', journey, '--json', '--root', '..'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out) as Generated[];
}

/** The sample of one journey on one brand: the longest path that buys, else the longest. */
function sample(g: Generated): Path {
  const longest = (paths: Path[]) => paths.reduce((a, b) => (b.calls.length > a.calls.length ? b : a));
  const bought = g.paths.filter((p) => p.ends === 'bought');
  return longest(bought.length > 0 ? bought : g.paths);
}

/**
 * One sample for each journey and each set of addresses its pages are at (a brand may name its own,
 * as epw's confirmation is /success): what a brand's pages say is drawn for every brand by
 * brands.spec.ts and aggregator.spec.ts, so the same pages at the same addresses run once.
 */
function distinct(paths: Path[]): Path[] {
  const seen = new Set<string>();
  return paths.filter((p) => {
    const pages = p.calls.map((c) => c.page.split('?')[0]).join(' ');
    if (seen.has(pages)) return false;
    seen.add(pages);
    return true;
  });
}

const samples: Path[] = ['direct', 'aggregator', 'rehoming'].flatMap((journey) => distinct(generated(journey).map(sample)));

for (const path of samples) {
  test(`generated path ${path.id} (${path.ends}) draws every page it reaches`, async ({ page }, testInfo) => {
    // Brands with a tag manager load it from its own host; the browser tests answer it locally.
    await stubTagManagers(page);
    const problems = watchConsole(page);
    await page.goto(`${path.start}?brand=${path.brand}`);
    await expect(page.locator('h1')).toBeVisible();
    const csrf: string = await page.evaluate(async (start) => {
      const answer = await fetch(start, { headers: { Accept: 'application/json' } });
      return (await answer.json()).data.csrf;
    }, `${path.start}?brand=${path.brand}`);
    for (const call of path.calls) {
      const answer = await page.request.post(call.call, { data: { ...call.body, csrf } });
      expect(answer.status(), `${call.call}: ${await answer.text()}`).toBeLessThan(500);
      const wanted = { moved: [200], blocked: [200], invalid: [422], refused_by_guard: [200, 409] }[call.outcome] ?? [409];
      expect(wanted, `${call.call} answered ${answer.status()}`).toContain(answer.status());
      await page.goto(call.page);
      await expect(page.locator('h1')).toBeVisible();
    }
    await expectAccessible(page);
    expect(problems()).toEqual([]);
  });
}
