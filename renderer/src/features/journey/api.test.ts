import { afterEach, describe, expect, it, vi } from 'vitest';

import { forgetViews, markViewed } from '@/shared/experiments';
import { submitAnswers } from './api';

describe('the call helper (journey.md §7)', () => {
  afterEach(forgetViews);

  function fakeFetch() {
    return vi.fn(async () => new Response(JSON.stringify({ data: {} }), { status: 200, headers: { 'Content-Type': 'application/json' } }));
  }

  it('adds the token and locale, and no experiment views before a variation is shown', async () => {
    const fetcher = fakeFetch();
    await submitAnswers('/api/saveCover', 'token', { pets: [] }, fetcher as unknown as typeof fetch);
    const body = JSON.parse((fetcher.mock.calls[0] as unknown as [string, RequestInit])[1].body as string);
    expect(body).toEqual({ csrf: 'token', locale: 'en-GB', pets: [] });
  });

  it('adds the experiment views the page has shown (journey.md §6)', async () => {
    markViewed('cover_type_guide', 'guide');
    markViewed('cover_type_guide', 'guide');
    const fetcher = fakeFetch();
    await submitAnswers('/api/saveCover', 'token', { pets: [] }, fetcher as unknown as typeof fetch);
    const body = JSON.parse((fetcher.mock.calls[0] as unknown as [string, RequestInit])[1].body as string);
    expect(body.experiment_views).toEqual(['cover_type_guide:guide']);
  });
});
