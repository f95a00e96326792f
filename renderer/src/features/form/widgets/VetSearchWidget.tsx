/**
 * The vet search (journey.md §4 Pre-existing conditions and vet search; owner-payment.md §3 Vet,
 * §4 Vet search, §5): a postcode search that fetches the practices near it (POST
 * /api/getvetlist), a list to choose from, "Can't find your vet?" and "provide vet details
 * later". No result gives the not-found state: the vet's details are cleared and provide-later
 * is set. The postcode rules and their messages are the server's; this widget shows them.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext, useEffect, useId, useRef, useState } from 'react';

import { text } from '@/shared/copy';
import { CopyContext, describedBy, useFieldError } from '../field-errors';
import { GroupHead } from '../templates';
import '../form.css';

interface Vet {
  vet_id: string;
  companyname: string;
  accountname: string;
  address_1: string;
  address_2: string;
  address_3: string;
  postcode: string;
}

type Pet = Record<string, unknown>;

const CLEARED: Pet = {
  vet_name: undefined,
  vet_id: undefined,
  vet_address_line_1: undefined,
  vet_address_line_2: undefined,
  vet_town: undefined,
  vet_county: undefined,
  vet_postcode: undefined,
};

function address(v: Vet): string {
  return [v.address_1, v.address_2, v.address_3, v.postcode].filter(Boolean).join(', ');
}

export async function searchVets(postcode: string): Promise<{ vets: Vet[] } | { error: string }> {
  const response = await fetch('/api/getvetlist', {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    credentials: 'same-origin',
    body: JSON.stringify({ postcode, locale: 'en-GB' }),
  });
  const body = (await response.json().catch(() => null)) as { data?: Vet[]; errors?: Array<{ message: string }> } | null;
  if (response.ok && Array.isArray(body?.data)) return { vets: body.data };
  if (response.status === 422 && body?.errors?.[0]) return { error: body.errors[0].message };
  throw new Error(`vet search failed: ${response.status}`);
}

/** The pet's vet fields for the practice chosen. */
function chosenVet(v: Vet): Pet {
  return {
    vet_name: v.companyname,
    vet_id: v.vet_id,
    vet_address_line_1: v.address_1,
    vet_address_line_2: v.address_2 || undefined,
    vet_town: v.address_3,
    vet_county: undefined,
    vet_postcode: v.postcode,
    provide_vet_later: undefined,
  };
}

export function VetSearchWidget({ id, label, registry }: WidgetProps) {
  const copy = useContext(CopyContext);
  const error = useFieldError(id);
  const uid = useId();
  const context = registry.formContext as {
    formData: { pets?: Pet[] };
    onlyPet?: number;
    setPetFields: (index: number, fields: Pet) => void;
  };
  const index = context.onlyPet ?? 0;
  const pet = context.formData.pets?.[index] ?? {};
  const set = (fields: Pet) => context.setPetFields(index, fields);
  const [postcode, setPostcode] = useState(typeof pet.vet_postcode === 'string' ? pet.vet_postcode : '');
  const [postcodeError, setPostcodeError] = useState<string | null>(null);
  const [vets, setVets] = useState<Vet[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [cantFind, setCantFind] = useState(pet.provide_vet_later === true);
  const [announcement, setAnnouncement] = useState('');
  const listRef = useRef<HTMLFieldSetElement>(null);
  // After a search that found practices, focus moves to the first of them.
  const [focusList, setFocusList] = useState(0);
  useEffect(() => {
    if (focusList > 0) listRef.current?.querySelector('input')?.focus();
  }, [focusList]);
  const later = pet.provide_vet_later === true;
  const chosen = typeof pet.vet_name === 'string' && pet.vet_name !== 'notFound' ? pet.vet_name : null;

  async function find() {
    setSearching(true);
    setPostcodeError(null);
    try {
      const result = await searchVets(postcode);
      if ('error' in result) {
        setPostcodeError(result.error);
        setVets(null);
        document.getElementById(`${uid}-postcode`)?.focus();
        return;
      }
      setVets(result.vets);
      if (result.vets.length === 0) {
        // The not-found state: details cleared, provide-later offered and set.
        set({ ...CLEARED, vet_name: 'notFound', done_vet_search: true, vets_found: false, provide_vet_later: true });
        setCantFind(true);
        setAnnouncement(text(copy, 'vet.search.none'));
      } else {
        set({ ...CLEARED, done_vet_search: true, vets_found: true, provide_vet_later: undefined });
        setCantFind(false);
        setAnnouncement(text(copy, 'vet.search.results', { count: String(result.vets.length), postcode }));
        setFocusList((n) => n + 1);
      }
    } catch {
      setPostcodeError(text(copy, 'toast.generic.body'));
    } finally {
      setSearching(false);
    }
  }

  return (
    <fieldset className="choice vet-search" id={id} aria-describedby={describedBy(id, Boolean(error), false)}>
      <GroupHead id={id} label={label} />
      <div className={`field${postcodeError ? ' field--error' : ''}`}>
        <label className="field__label" htmlFor={`${uid}-postcode`}>
          {text(copy, 'vet.search.postcode')}
        </label>
        {postcodeError && (
          <p className="field__error" id={`${uid}-postcode__error`}>
            <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
            {postcodeError}
          </p>
        )}
        <div className="vet-search__row">
          <input
            id={`${uid}-postcode`}
            type="text"
            className="text-input postcode-input"
            autoComplete="off"
            value={postcode}
            aria-invalid={postcodeError ? true : undefined}
            aria-describedby={postcodeError ? `${uid}-postcode__error` : undefined}
            onChange={(e) => setPostcode(e.target.value)}
            onKeyDown={(e) => {
              // Enter searches rather than saving the modal.
              if (e.key === 'Enter') {
                e.preventDefault();
                void find();
              }
            }}
          />
          <button type="button" className="button button--secondary" onClick={() => void find()} disabled={searching}>
            {text(copy, 'vet.search.button')}
          </button>
        </div>
      </div>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {vets && vets.length === 0 && <p className="panel panel--info">{text(copy, 'vet.search.none')}</p>}
      {vets && vets.length > 0 && (
        <fieldset className="choice vet-list" ref={listRef}>
          <legend className="field__label">{text(copy, 'vet.search.choose')}</legend>
          <div className="choice__options">
            {vets.map((v) => (
              <div className="choice__option choice__option--block" key={v.vet_id}>
                <input
                  type="radio"
                  id={`${uid}-vet-${v.vet_id}`}
                  name={`${uid}-vet`}
                  checked={pet.vet_id === v.vet_id}
                  onChange={() => set(chosenVet(v))}
                />
                <label htmlFor={`${uid}-vet-${v.vet_id}`}>
                  <span className="vet__name">{v.companyname}</span>
                  <span className="vet__address">{address(v)}</span>
                </label>
              </div>
            ))}
          </div>
        </fieldset>
      )}
      {chosen && !vets && (
        <p className="vet-chosen">
          {text(copy, 'vet.chosen')}: {chosen}
          {typeof pet.vet_address_line_1 === 'string' && `, ${[pet.vet_address_line_1, pet.vet_town, pet.vet_postcode].filter(Boolean).join(', ')}`}
        </p>
      )}
      {!cantFind && (
        <button type="button" className="link-button" onClick={() => setCantFind(true)}>
          {text(copy, 'vet.cant_find')}
        </button>
      )}
      {cantFind && (
        <div className="checkbox">
          <input
            type="checkbox"
            id={`${uid}-later`}
            checked={later}
            onChange={(e) =>
              set(
                e.target.checked
                  ? { ...CLEARED, vet_name: 'notFound', provide_vet_later: true }
                  : { vet_name: undefined, provide_vet_later: undefined },
              )
            }
          />
          <label htmlFor={`${uid}-later`}>{text(copy, 'vet.provide_later')}</label>
        </div>
      )}
    </fieldset>
  );
}
