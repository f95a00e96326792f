// @vitest-environment jsdom
// Consent before tags (the ICO's guidance on cookies): the choice read and written per
// brand, nothing in the data layer once refused, the tag manager loaded once and only when asked,
// and a withdrawal deleting the analytics cookies.
import { afterEach, describe, expect, it } from 'vitest';

import { push } from './analytics';
import { choiceCookie, currentChoice, deleteAnalyticsCookies, loadTagManager, noteChoice, readChoice, tagManagerLoaded } from './consent';
import cookieCases from '../../../tests/parity/consent-cookies.json';

afterEach(() => {
  noteChoice(null);
  window.dataLayer = undefined;
  document.getElementById('pawpath-tag-manager')?.remove();
});

describe('the remembered choice', () => {
  it('is the brand’s own, and only the two values the page writes', () => {
    const cookies = 'pawpath_session=abc; pawpath_consent_ptp=granted; pawpath_consent_pos=denied; pawpath_consent_sbp=yes';
    expect(readChoice('ptp', cookies)).toBe('granted');
    expect(readChoice('pos', cookies)).toBe('denied');
    expect(readChoice('sbp', cookies)).toBeNull();
    expect(readChoice('rsp', cookies)).toBeNull();
    expect(readChoice('pt', cookies)).toBeNull();
  });

  it('is read as the server reads it (tests/parity/consent-cookies.json)', () => {
    for (const c of cookieCases.cases) {
      expect(readChoice('pos', c.cookies), c.cookies).toBe(c.choice);
    }
  });

  it('lasts the brand’s days, for the whole site, never sent cross-site', () => {
    expect(choiceCookie('ptp', 'denied', 365, true)).toBe('pawpath_consent_ptp=denied; Max-Age=31536000; Path=/; SameSite=Lax; Secure');
    expect(choiceCookie('pos', 'granted', 30, false)).toBe('pawpath_consent_pos=granted; Max-Age=2592000; Path=/; SameSite=Lax');
  });
});

describe('the data layer', () => {
  it('holds events until the customer chooses, and takes none once they refuse', () => {
    push({ event: 'page_view' });
    expect(window.dataLayer?.map((e) => e.event)).toEqual(['page_view']);
    noteChoice('denied');
    expect(currentChoice()).toBe('denied');
    push({ event: 'submission' });
    expect(window.dataLayer?.map((e) => e.event)).toEqual(['page_view']);
    noteChoice('granted');
    push({ event: 'submission' });
    expect(window.dataLayer?.map((e) => e.event)).toEqual(['page_view', 'submission']);
  });
});

describe('the tag manager', () => {
  it('is not on the page until loaded, then once, after its start event', () => {
    expect(tagManagerLoaded()).toBe(false);
    push({ event: 'page_view' });
    loadTagManager('https://www.googletagmanager.com/gtm.js?id=GTM-PTPPAWS');
    loadTagManager('https://www.googletagmanager.com/gtm.js?id=GTM-PTPPAWS');
    const scripts = document.querySelectorAll('script#pawpath-tag-manager');
    expect(scripts).toHaveLength(1);
    expect((scripts[0] as HTMLScriptElement).src).toBe('https://www.googletagmanager.com/gtm.js?id=GTM-PTPPAWS');
    expect(window.dataLayer?.map((e) => e.event)).toEqual(['page_view', 'gtm.js']);
  });
});

describe('a withdrawal', () => {
  it('deletes the analytics cookies and leaves the others', () => {
    document.cookie = '_ga=GA1.1.1; Path=/';
    document.cookie = '_ga_ABC123=GS1.1; Path=/';
    document.cookie = '_gid=GA1.1.2; Path=/';
    document.cookie = 'pawpath_consent_ptp=denied; Path=/';
    expect(deleteAnalyticsCookies(document, 'localhost').sort()).toEqual(['_ga', '_ga_ABC123', '_gid']);
    expect(document.cookie).toBe('pawpath_consent_ptp=denied');
  });
});
