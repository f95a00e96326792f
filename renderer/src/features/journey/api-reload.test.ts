// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';

// The page's code chunks fail to load, as after a release renamed them under an open page.
vi.mock('@/shared/on-demand', () => ({
  prepareView: vi.fn(async () => {
    throw new TypeError('Failed to fetch dynamically imported module');
  }),
}));

import { loadView } from './api';

describe('a page whose chunks a release renamed', () => {
  const reload = vi.fn();
  Object.defineProperty(window, 'location', { configurable: true, value: { ...window.location, reload } });
  afterEach(() => sessionStorage.clear());

  it('is opened again once, and then says it failed rather than reloading for ever', async () => {
    const view = { step: { id: 'pet_details' }, questions: { schema: { $id: 'pawpath:questions/pet_details' } } };
    const fetcher = vi.fn(async () => new Response(JSON.stringify({ data: view }), { status: 200 }));
    const first = await loadView('/quote', fetcher as unknown as typeof fetch);
    expect(first.kind).toBe('failed');
    expect(reload).toHaveBeenCalledTimes(1);
    const second = await loadView('/quote', fetcher as unknown as typeof fetch);
    expect(second.kind).toBe('failed');
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
