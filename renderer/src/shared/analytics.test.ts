// owner-payment.md §4 Analytics: submission events per page, transactionDetails, a purchase
// event once only, start dates as DD/MM/YYYY, experiment views carried.
import { describe, expect, it } from 'vitest';

import { analyticsDate, pageView, purchaseOnce, submission, transactionDetails } from './analytics';
import type { Purchase, ViewData } from './types';

const purchase: Purchase = {
  id: 'p1',
  created_at: '2026-11-23T10:00:00Z',
  payment_frequency: 'MP',
  payment_day: 15,
  cover_start: '2026-12-01',
  policies: [
    { policy_number: 'PETPS0000001', pet_original_id: 0, pet_name: 'Rex', product_code: 'LT04000', monthly_premium: '20.10', annual_premium: '241.20', start_date: '2026-12-01' },
    { policy_number: 'PETPS0000002', pet_original_id: 1, pet_name: 'Tom', product_code: 'LT04000', monthly_premium: '10.25', annual_premium: '123.00', start_date: '2026-12-01' },
  ],
  payment_method: 'DD',
  mandate_reference: 'X-DD',
  account_number_masked: '****4958',
  card: null,
  collections: [],
  portal_registered: false,
  portal_open: true,
};

function view(extra: Partial<ViewData> = {}): ViewData {
  return {
    qidu: 'ABCD-EFGH-JKMN',
    brand: 'sbp',
    channel: 'direct',
    journey: 'direct',
    shell: { tracking_id: 'GTM-SBPPAWS', currency: 'GBP' },
    pets: [{}, {}],
    experiments: { cover_guide: 'questions' },
    start_date: { chosen: '2026-12-01' },
    step: { id: 'your_details', path: '/quote/your-details', title: 'Your details' },
    purchase: null,
    ...extra,
  } as unknown as ViewData;
}

describe('the data layer', () => {
  it('writes start dates as DD/MM/YYYY', () => {
    expect(analyticsDate('2026-12-01')).toBe('01/12/2026');
    expect(analyticsDate(null)).toBeNull();
  });

  it('names each page as the spec does, with the brand tracking id and experiment views', () => {
    expect(submission('your_details', view())).toMatchObject({
      event: 'submission',
      page: 'user_details',
      start_date: '01/12/2026',
      tracking_id: 'GTM-SBPPAWS',
      experiment_views: ['cover_guide:questions'],
    });
    expect(submission('pet_details', view())?.page).toBe('pet_details');
    expect(submission('crossbreed', view())).toBeNull();
    expect(pageView(view())).toMatchObject({ event: 'page_view', page: '/quote/your-details', brand: 'sbp' });
  });

  it('gives the transaction in exact pence and fires the purchase once only', () => {
    const bought = view({ purchase });
    expect(transactionDetails(bought)).toMatchObject({ transaction_id: 'p1', value: '30.35', start_date: '01/12/2026', currency: 'GBP' });
    const store = new Map<string, string>();
    const seen = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    expect(purchaseOnce(bought, seen)?.event).toBe('purchase');
    expect(purchaseOnce(bought, seen)).toBeNull();
    expect(purchaseOnce(view(), seen)).toBeNull();
  });
});
