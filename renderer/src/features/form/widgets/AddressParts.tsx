/**
 * The address search's forms (owner-payment.md §2 address search, §5 Address search, §8 Address
 * and policy): the address found, the modern search (house and postcode, a list of results), the
 * legacy postcode search (Find address and a select list), and manual entry.
 */
import { useContext } from 'react';

import { text } from '@/shared/copy';
import { CopyContext } from '../field-errors';
import { formatPostcode } from '../postcode';
import { type AddressSearch, type Owner, str } from './useAddressSearch';

interface Part {
  search: AddressSearch;
  uid: string;
}

/** The address found, said where it is shown, with the ways to change it. */
export function ChosenAddress({ search, owner, readonly }: Part & { owner: Owner; readonly?: boolean }) {
  const copy = useContext(CopyContext);
  const { chosenRef, found, setMode, setResults } = search;
  const chosenLines = [owner.customer_address_line_1, owner.customer_address_line_2, owner.customer_town, owner.customer_county, owner.customer_postcode]
    .map(str)
    .filter(Boolean);
  return (

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
  );
}

/** The modern search: house name or number and postcode, then a list of results. */
export function ModernSearch({ search, uid, lineError }: Part & { lineError: string | undefined }) {
  const copy = useContext(CopyContext);
  const { house, setHouse, postcode, setPostcode, busy, searchError, results, setResults, resultsRef, setMode, fill, modernSearch } = search;
  return (

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
  );
}

/** The legacy postcode search: Find address, then a select list. */
export function LegacySearch({ search, uid }: Part) {
  const copy = useContext(CopyContext);
  const { postcode, setPostcode, busy, legacyError, results, setResults, resultsRef, setMode, fill, legacySearch } = search;
  return (

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
  );
}

/** Manual entry, always possible: the address's own fields. */
export function ManualAddress({
  search,
  owner,
  set,
  id,
  lineError,
  postcodeError,
}: {
  search: AddressSearch;
  owner: Owner;
  set: (fields: Owner) => void;
  id: string;
  lineError: string | undefined;
  postcodeError: string | undefined;
}) {
  const copy = useContext(CopyContext);
  const { setMode } = search;
  return (

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
  );
}
