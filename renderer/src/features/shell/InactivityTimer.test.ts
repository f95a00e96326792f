import { describe, expect, it } from 'vitest';

import { countdownTone, period } from './TimeoutDialogs';
import { text } from '@/shared/copy';
import en from '../../../../questions/copy/en-GB.json';

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

describe('the warning names the brand\'s own times (journey.md §2, §9)', () => {
  const copy = (en as { messages: Record<string, string> }).messages;
  const warning = (warningMs: number, resetMs: number) =>
    text(copy, 'timeout.warning.body', { period: period(copy, resetMs), left: period(copy, resetMs - warningMs) });
  it('reads word for word at 3h58m and 4h', () => {
    expect(warning(14_280_000, 14_400_000)).toBe(
      'After 4 hours of inactivity we will reset your quote, you have 2 minutes before it resets.',
    );
  });
  it('says 1 hour for the brand that resets after an hour', () => {
    expect(warning(3_480_000, 3_600_000)).toBe(
      'After 1 hour of inactivity we will reset your quote, you have 2 minutes before it resets.',
    );
  });
  it('words the short test-host times in minutes and seconds', () => {
    expect(period(copy, 180_000)).toBe('3 minutes');
    expect(period(copy, 60_000)).toBe('1 minute');
    expect(period(copy, 90_000)).toBe('1 minute and 30 seconds');
    expect(period(copy, 1_000)).toBe('1 second');
  });
  it('words long times in hours and minutes (journey.md §9: the contact page\'s 78,000,000 ms)', () => {
    expect(period(copy, 78_000_000)).toBe('21 hours and 40 minutes');
    expect(period(copy, 14_400_000)).toBe('4 hours');
    expect(period(copy, 3_660_000)).toBe('1 hour and 1 minute');
    expect(period(copy, 3_600_500)).toBe('1 hour');
  });
});
