/**
 * The owner's address (owner-payment.md §2 address search, §5 Address search, §8 Address and
 * policy): the modern search (house name or number and postcode, a list of results), the legacy
 * postcode search (Find address and a select list), and manual entry, always possible. The found
 * address fills the owner's address fields; edit links reopen it. Lookups go to
 * POST /api/AddressSearch; the postcode rule is the server's, mirrored in ../postcode.ts.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext, useEffect, useId, useRef, useState } from 'react';

import type { Notice } from '@/features/journey/journey-machine';
import { text } from '@/shared/copy';
import { CopyContext, useFieldError } from '../field-errors';
import { formatPostcode } from '../postcode';
import { GroupHead } from '../templates';
import '../form.css';
import { postHeaders } from '@/shared/post-headers';

interface Found {
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

type Owner = Record<string, unknown>;
type Mode = 'chosen' | 'modern' | 'legacy' | 'manual';

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

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function AddressSearchWidget({ id, label, registry, readonly }: WidgetProps) {
  const copy = useContext(CopyContext);
  const uid = useId();
  const context = registry.formContext as {
    formData: { owner?: Owner };
    setFields: (objectKey: string, fields: Owner) => void;
    notify?: (notice: Notice) => void;
  };
  const owner = context.formData.owner ?? {};
  const set = (fields: Owner) => context.setFields('owner', fields);
  const notify = (kind: Notice['kind'], title: string, body: string) => context.notify?.({ kind, title, body });
  const lineError = useFieldError(id);
  const postcodeError = useFieldError('root_owner_customer_postcode');
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

  const chosenLines = [owner.customer_address_line_1, owner.customer_address_line_2, owner.customer_town, owner.customer_county, owner.customer_postcode]
    .map(str)
    .filter(Boolean);

  return (
    <fieldset className="choice address-search" aria-describedby={lineError ? `${id}__error` : undefined}>
      <GroupHead id={id} label={label} />

      {mode === 'chosen' && (
        <div className="address-chosen" ref={chosenRef} tabIndex={-1}>
          {found > 0 && <p className="address-chosen__found">{text(copy, 'address.found')}</p>}
          <address>
            {chosenLines.map((line) => (
              <span key={line}>
                {line}
                <br />
              </span>
            ))}
          </address>
          {!readonly && (
          <div className="address-search__links">
            <button type="button" className="link-button" onClick={() => setMode('manual')}>
              {text(copy, 'address.edit')}
            </button>
            <button type="button" className="link-button" onClick={() => { setResults(null); setMode('modern'); }}>
              {text(copy, 'address.search_again')}
            </button>
          </div>
          )}
        </div>
      )}

      {mode === 'modern' && (
        <>
          <div className="address-search__row">
            <div className="field">
              <label className="field__label" htmlFor={`${uid}-house`}>
                {text(copy, 'address.house.label')}
              </label>
              <input id={`${uid}-house`} className="text-input house-input" value={house} autoComplete="off" aria-invalid={lineError || searchError ? true : undefined}
                aria-describedby={searchError ? `${uid}-search-error` : undefined}
                onChange={(e) => setHouse(e.target.value)}
                onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); void modernSearch(); } }} />
            </div>
            <div className="field">
              <label className="field__label" htmlFor={`${uid}-postcode`}>
                {text(copy, 'address.postcode.label')}
              </label>
              <input id={`${uid}-postcode`} className="text-input postcode-input" value={postcode} autoComplete="postal-code"
                aria-describedby={searchError ? `${uid}-search-error` : undefined}
                onChange={(e) => setPostcode(e.target.value)}
                onBlur={() => setPostcode((p) => formatPostcode(p) ?? p)}
                onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); void modernSearch(); } }} />
            </div>
            <button type="button" className="button button--secondary" disabled={busy} onClick={() => void modernSearch()}>
              {text(copy, 'address.search')}
            </button>
          </div>
          {searchError && (
            <div className="address-search__error" id={`${uid}-search-error`}>
              <p className="field__error">
                <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
                {text(copy, searchError)}
              </p>
              <button type="button" className="button button--secondary" onClick={() => setMode('manual')}>
                {text(copy, 'address.manual')}
              </button>
            </div>
          )}
          {results && results.length > 1 && (
            <div ref={resultsRef}>
              <fieldset className="choice">
                <legend className="field__label">{text(copy, 'address.results')}</legend>
                <div className="choice__options">
                  {results.map((r) => (
                    <div className="choice__option choice__option--block" key={r.Id}>
                      <input type="radio" id={`${uid}-r-${r.Id}`} name={`${uid}-results`} onChange={() => void fill(r, house.trim())} />
                      <label htmlFor={`${uid}-r-${r.Id}`}>
                        <span>{r.Text}</span>
                        <span className="vet__address">{r.Description}</span>
                      </label>
                    </div>
                  ))}
                </div>
              </fieldset>
            </div>
          )}
          <div className="address-search__links">
            <button type="button" className="link-button" onClick={() => { setResults(null); setMode('legacy'); }}>
              {text(copy, 'address.legacy')}
            </button>
            {!searchError && (
              <button type="button" className="link-button" onClick={() => setMode('manual')}>
                {text(copy, 'address.manual')}
              </button>
            )}
          </div>
        </>
      )}

      {mode === 'legacy' && (
        <>
          <div className={`field${legacyError ? ' field--error' : ''}`}>
            <label className="field__label" htmlFor={`${uid}-legacy`}>
              {text(copy, 'address.postcode.label')}
            </label>
            {legacyError && (
              <p className="field__error" id={`${uid}-legacy__error`}>
                <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
                {legacyError}
              </p>
            )}
            <div className="address-search__row">
              <input id={`${uid}-legacy`} className="text-input postcode-input" value={postcode} autoComplete="postal-code"
                aria-invalid={legacyError ? true : undefined} aria-describedby={legacyError ? `${uid}-legacy__error` : undefined}
                onChange={(e) => setPostcode(e.target.value)}
                onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); void legacySearch(); } }} />
              <button type="button" className="button button--secondary" disabled={busy} onClick={() => void legacySearch()}>
                {text(copy, 'address.find')}
              </button>
            </div>
          </div>
          {results && results.length === 0 && <p className="panel panel--info">{text(copy, 'address.no_results')}</p>}
          {results && results.length > 0 && (
            <div className="field" ref={resultsRef}>
              <label className="field__label" htmlFor={`${uid}-select`}>
                {text(copy, 'address.select_label')}
              </label>
              <select id={`${uid}-select`} className="text-input select" defaultValue=""
                onChange={(e) => { const r = results.find((x) => x.Id === e.target.value); if (r) void fill(r, ''); }}>
                <option value="" disabled>
                  {text(copy, 'address.select_placeholder')}
                </option>
                {results.map((r) => (
                  <option key={r.Id} value={r.Id}>
                    {r.Text}, {r.Description}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="address-search__links">
            <button type="button" className="link-button" onClick={() => { setResults(null); setMode('modern'); }}>
              {text(copy, 'address.modern')}
            </button>
            <button type="button" className="link-button" onClick={() => setMode('manual')}>
              {text(copy, 'address.manual')}
            </button>
          </div>
        </>
      )}

      {mode === 'manual' && (
        <div className="address-manual">
          {(
            [
              // The line's error shows once, above, with the address question's legend.
              ['customer_address_line_1', 'address.line_1', 'address-line1', undefined],
              ['customer_address_line_2', 'address.line_2', 'address-line2', undefined],
              ['customer_town', 'address.town', 'address-level2', undefined],
              ['customer_county', 'address.county', 'address-level1', undefined],
              ['customer_postcode', 'address.postcode.label', 'postal-code', postcodeError],
            ] as const
          ).map(([field, labelKey, autocomplete, error]) => {
            const inputId = `root_owner_${field}`;
            return (
              <div className={`field${error ? ' field--error' : ''}`} key={field} data-field={field === 'customer_postcode' ? 'owner.customer_postcode' : undefined}>
                <label className="field__label" htmlFor={inputId}>
                  {text(copy, labelKey)}
                </label>
                {error && (
                  <p className="field__error" id={`${inputId}__error`}>
                    <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
                    {error}
                  </p>
                )}
                <input
                  id={inputId}
                  className={`text-input${field === 'customer_postcode' ? ' postcode-input' : ''}`}
                  autoComplete={autocomplete}
                  value={str(owner[field])}
                  aria-invalid={error || (field === 'customer_address_line_1' && lineError) ? true : undefined}
                  aria-describedby={error ? `${inputId}__error` : field === 'customer_address_line_1' && lineError ? `${id}__error` : undefined}
                  onChange={(e) => set({ [field]: e.target.value })}
                  onBlur={(e) => {
                    if (field === 'customer_postcode') {
                      const formatted = formatPostcode(e.target.value);
                      if (formatted) set({ customer_postcode: formatted });
                    }
                  }}
                />
              </div>
            );
          })}
          <div className="address-search__links">
            <button type="button" className="link-button" onClick={() => setMode('modern')}>
              {text(copy, 'address.modern')}
            </button>
          </div>
        </div>
      )}
    </fieldset>
  );
}
