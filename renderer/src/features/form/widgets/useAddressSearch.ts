/**
 * The address search's state and calls (owner-payment.md §2 address search, §5 Address search):
 * which form is shown, what was typed, the results, the errors said at the search, and the
 * lookups through POST /api/AddressSearch that fill the owner's address fields.
 */
import { useEffect, useRef, useState } from 'react';

import type { Notice } from '@/features/journey/journey-machine';
import { text } from '@/shared/copy';
import { postHeaders } from '@/shared/post-headers';
import { formatPostcode } from '../postcode';

export interface Found {
  Id: string;
  Type: string;
  Text: string;
  Description: string;
}

interface Retrieved {
  Line1: string;
  Line2: string;
  City: string;
  Province: string;
  PostalCode: string;
  AdminAreaName: string;
}

export type Owner = Record<string, unknown>;
export type Mode = 'chosen' | 'modern' | 'legacy' | 'manual';

async function post<T>(body: Record<string, unknown>): Promise<{ ok: true; data: T } | { ok: false; message: string | null }> {
  const response = await fetch('/api/AddressSearch', {
    method: 'POST',
    headers: typeof body.csrf === 'string' ? postHeaders(body.csrf) : { Accept: 'application/json', 'Content-Type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify({ ...body, locale: 'en-GB' }),
  });
  const json = (await response.json().catch(() => null)) as { data?: T; errors?: Array<{ message: string }> } | null;
  if (response.ok && json && 'data' in json) return { ok: true, data: json.data as T };
  return { ok: false, message: json?.errors?.[0]?.message ?? null };
}

export const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function useAddressSearch(
  owner: Owner,
  set: (fields: Owner) => void,
  notify: (kind: Notice['kind'], title: string, body: string) => void,
  copy: Record<string, string>,
) {
  const [mode, setMode] = useState<Mode>(str(owner.customer_address_line_1) ? 'chosen' : 'modern');
  const [house, setHouse] = useState(str(owner.houseNumberName));
  const [postcode, setPostcode] = useState(str(owner.customer_postcode));
  const [results, setResults] = useState<Found[] | null>(null);
  const [legacyError, setLegacyError] = useState<string | null>(null);
  // A search that found nothing, or could not be made, says so at the field too (the
  // spec's toast closes on its own), with the way on: entering the address by hand.
  const [searchError, setSearchError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const resultsRef = useRef<HTMLDivElement>(null);
  const [focusResults, setFocusResults] = useState(0);
  useEffect(() => {
    if (focusResults > 0) resultsRef.current?.querySelector<HTMLElement>('input, select')?.focus();
  }, [focusResults]);
  // A found address is said where it is shown, and takes the focus (the search box it
  // was typed in is gone); no toast over the page's other questions.
  const chosenRef = useRef<HTMLDivElement>(null);
  const [found, setFound] = useState(0);
  useEffect(() => {
    if (found > 0) chosenRef.current?.focus();
  }, [found]);

  async function fill(found: Found, typedHouse: string) {
    const answer = await post<Retrieved | null>({ id: found.Id });
    if (!answer.ok || !answer.data) {
      setSearchError('address.not_found');
      return;
    }
    const a = answer.data;
    set({
      houseNumberName: typedHouse || a.Line1.split(/[ ,]/)[0],
      customer_address_line_1: a.Line1,
      customer_address_line_2: a.Line2,
      customer_town: a.City,
      customer_county: a.Province || a.AdminAreaName,
      customer_postcode: formatPostcode(a.PostalCode) ?? a.PostalCode,
    });
    setResults(null);
    setMode('chosen');
    setSearchError(null);
    // owner-payment.md §8 Address and policy: "Found: We found your address.", said above the
    // address itself, which takes the focus.
    setFound((n) => n + 1);
  }

  async function modernSearch() {
    const formatted = formatPostcode(postcode);
    // Each refusal is said at the search, with the way on; no toast over it.
    if (!house.trim() || !postcode.trim()) {
      setSearchError('address.toast.invalid_search.body');
      return;
    }
    if (!formatted) {
      setSearchError('address.toast.invalid_postcode.body');
      return;
    }
    setSearchError(null);
    setBusy(true);
    try {
      const answer = await post<Found[]>({ address: formatted.replace(' ', ''), text: house.trim() });
      if (!answer.ok) {
        notify('error', 'toast.generic.title', 'toast.generic.body');
        return;
      }
      if (answer.data.length === 0) {
        setResults(null);
        setSearchError('address.not_found');
      } else if (answer.data.length === 1) {
        await fill(answer.data[0], house.trim());
      } else {
        setResults(answer.data);
        setFocusResults((n) => n + 1);
      }
    } finally {
      setBusy(false);
    }
  }

  async function legacySearch() {
    setLegacyError(null);
    if (!postcode.trim()) {
      setLegacyError(text(copy, 'address.postcode_required'));
      return;
    }
    const formatted = formatPostcode(postcode);
    if (!formatted) {
      setLegacyError(text(copy, 'address.postcode_invalid'));
      return;
    }
    setBusy(true);
    try {
      const answer = await post<Found[]>({ address: formatted.replace(' ', '') });
      if (!answer.ok) {
        if (answer.message) setLegacyError(answer.message);
        else notify('error', 'toast.generic.title', 'toast.generic.body');
        return;
      }
      setResults(answer.data);
      if (answer.data.length > 0) setFocusResults((n) => n + 1);
    } finally {
      setBusy(false);
    }
  }

  return {
    mode,
    setMode,
    house,
    setHouse,
    postcode,
    setPostcode,
    results,
    setResults,
    legacyError,
    searchError,
    busy,
    resultsRef,
    chosenRef,
    found,
    fill,
    modernSearch,
    legacySearch,
  };
}

export type AddressSearch = ReturnType<typeof useAddressSearch>;
