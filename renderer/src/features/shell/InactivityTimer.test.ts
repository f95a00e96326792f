import { describe, expect, it } from 'vitest';

import { countdownTone } from './InactivityTimer';

describe('the inactivity countdown (journey.md §2 Inactivity timeout)', () => {
  it('is the information colour, orange at 60 s or less, red at 30 s or less', () => {
    expect(countdownTone(120)).toBe('info');
    expect(countdownTone(61)).toBe('info');
    expect(countdownTone(60)).toBe('orange');
    expect(countdownTone(31)).toBe('orange');
    expect(countdownTone(30)).toBe('red');
    expect(countdownTone(0)).toBe('red');
  });
});
