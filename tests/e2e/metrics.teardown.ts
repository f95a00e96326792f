import { writeFileSync } from 'node:fs';

import { expect, test } from '@playwright/test';

import { metricsToken } from '../admin-token';

// After the whole browser suite, at both widths, /metrics as Prometheus scrapes it
// shows every family an operator watches, with values, counted from what the suite's customers
// did. The scrape is kept (test-results/metrics.prom) as the note's sample.

/** The samples of a family (lines starting with its name), as [series, value]. */
function samples(text: string, family: string): [string, number][] {
  return text
    .split('\n')
    .filter((l) => l.startsWith(family) && !l.startsWith('#'))
    .map((l) => {
      const at = l.lastIndexOf(' ');
      return [l.slice(0, at), Number(l.slice(at + 1))] as [string, number];
    });
}

const total = (text: string, family: string, having = '') =>
  samples(text, family)
    .filter(([series]) => series.includes(having))
    .reduce((sum, [, v]) => sum + v, 0);

test('metrics: every family has values after the browser suite', async ({ request }) => {
  expect((await request.get('/metrics')).status()).toBe(401);
  const response = await request.get('/metrics', { headers: { Authorization: `Bearer ${metricsToken}` } });
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('text/plain; version=0.0.4');
  const text = await response.text();
  writeFileSync('test-results/metrics.prom', text);

  // Counted from what the suite did.
  expect(total(text, 'pawpath_http_requests_total', 'route="/api/petdetails"')).toBeGreaterThan(0);
  expect(total(text, 'pawpath_http_request_duration_seconds_count')).toBeGreaterThan(0);
  expect(total(text, 'pawpath_transitions_total', 'outcome="moved"')).toBeGreaterThan(0);
  expect(total(text, 'pawpath_transitions_total', 'outcome="invalid"')).toBeGreaterThan(0);
  expect(total(text, 'pawpath_blocked_answers_total')).toBeGreaterThan(0);
  expect(total(text, 'pawpath_purchases_total', 'outcome="bought"')).toBeGreaterThan(0);
  expect(total(text, 'pawpath_card_declines_total')).toBeGreaterThan(0);
  expect(total(text, 'pawpath_email_deliveries_total', 'outcome="sent"')).toBeGreaterThan(0);
  for (const provider of ['address', 'vet', 'bank_check']) {
    expect(total(text, 'pawpath_provider_duration_seconds_count', `provider="${provider}"`), provider).toBeGreaterThan(0);
  }
  // Read at scrape time, or counted from zero: present, with a value.
  for (const family of [
    'pawpath_outbox_depth',
    'pawpath_outbox_oldest_undelivered_seconds',
    'pawpath_policy_events_waiting',
    'pawpath_policy_events_oldest_undelivered_seconds',
    'pawpath_policy_events_most_attempts',
    'pawpath_policy_events_undelivered_over_a_day',
    'pawpath_policy_event_deliveries_total',
    'pawpath_provider_errors_total',
    'pawpath_rate_limited_total',
    'pawpath_db_pool_connections',
    'pawpath_log_lines_dropped_total',
  ]) {
    const found = samples(text, family);
    expect(found.length, family).toBeGreaterThan(0);
    for (const [series, value] of found) expect(Number.isFinite(value), series).toBe(true);
  }
  // Routes are counted by template: no quote's path or token makes a series of its own.
  expect(text).not.toMatch(/route="\/aggregators\/continue\/[^{]/);
});
