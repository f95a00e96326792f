/**
 * The breed search (journey.md §2 Pet details): an editable combobox with a list popup, by the
 * WAI-ARIA combobox pattern. Typing filters the breeds of the pet's species and type; the arrow
 * keys move through them, Enter chooses, Escape closes; a live region says how many match.
 * Below it, the notices the breed data calls for: cannot insure, or no third party liability.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext, useEffect, useId, useMemo, useRef, useState } from 'react';

import { breedName, matchBreeds, searchableBreeds } from '@/features/breeds/breed-store';
import { petOf, useBreedData } from '@/features/breeds/breeds-context';
import { text } from '@/shared/copy';
import { CopyContext, describedBy, useFieldError } from '../field-errors';
import '../form.css';

export function BreedSearchWidget({ id, value, onChange, onBlur, uiSchema, registry, disabled, readonly }: WidgetProps) {
  const copy = useContext(CopyContext);
  const error = useFieldError(id);
  const { lists, byId } = useBreedData();
  const pet = petOf(id, registry.formContext?.formData);
  const candidates = useMemo(() => (lists ? searchableBreeds(lists, pet) : []), [lists, pet.pet_type, pet.dog_breed_type, pet.cat_breed_type, pet.rabbit_breed_type]); // eslint-disable-line react-hooks/exhaustive-deps
  const chosen = typeof value === 'string' ? byId.get(value) : undefined;
  const [typed, setTyped] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const listId = useId();
  const shown = typed ?? (chosen ? breedName(chosen) : '');
  const matches = useMemo(() => matchBreeds(candidates, shown), [candidates, shown]);
  const hasHelp = typeof uiSchema?.['ui:help'] === 'string';

  useEffect(() => {
    if (active >= 0) document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, listId]);

  function choose(index: number) {
    const breed = matches[index];
    if (!breed) return;
    onChange(breed.id);
    setTyped(null);
    setOpen(false);
    setActive(-1);
  }

  function type(textValue: string) {
    setTyped(textValue);
    setOpen(true);
    setActive(-1);
    const typedName = textValue.trim().toLowerCase();
    const exact = candidates.find((b) => breedName(b).toLowerCase() === typedName || b.desc.toLowerCase() === typedName);
    onChange(exact?.id);
  }

  function onKeyDown(e: React.KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(a + 1, matches.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === 'Enter') {
      if (open && active >= 0) {
        e.preventDefault();
        choose(active);
      }
    } else if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        setOpen(false);
        setActive(-1);
      }
    }
  }

  const expanded = open && matches.length > 0;
  // Suggestions that open below the fold look like typing did nothing; as the list
  // opens, the page scrolls just enough to show it.
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    if (!expanded) return;
    const frame = requestAnimationFrame(() => listRef.current?.scrollIntoView({ block: 'nearest' }));
    return () => cancelAnimationFrame(frame);
  }, [expanded]);
  const announcement = open && typed !== null ? (matches.length ? text(copy, 'pet.breed.results', { count: String(matches.length) }) : text(copy, 'pet.breed.no_match')) : '';
  const notice = chosen?.exclude ? 'excluded' : chosen?.exclude_tpl && chosen.species === 'dog' ? 'tpl' : null;

  return (
    <div className="combobox">
      <input
        id={id}
        name={id}
        type="text"
        role="combobox"
        className="text-input"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, Boolean(error), hasHelp)}
        value={shown}
        disabled={disabled || readonly || !lists}
        onChange={(e) => type(e.target.value)}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(typed !== null)}
        onBlur={() => {
          setOpen(false);
          setActive(-1);
          onBlur(id, value);
        }}
      />
      <ul id={listId} ref={listRef} role="listbox" className="combobox__list" hidden={!expanded} aria-label={text(copy, 'pet.breed.label')}>
        {matches.map((b, i) => (
          <li
            key={b.id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            className={`combobox__option${i === active ? ' combobox__option--active' : ''}`}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(i)}
          >
            {breedName(b)}
          </li>
        ))}
      </ul>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {notice === 'excluded' && (
        <div className="panel panel--stop" role="alert">
          <p className="panel__title">{text(copy, 'pet.cannot_insure.title')}</p>
          <p>{text(copy, 'pet.breed.excluded')}</p>
        </div>
      )}
      {notice === 'tpl' && (
        <p className="panel panel--info" role="status">
          {text(copy, 'pet.breed.tpl_notice')}
        </p>
      )}
    </div>
  );
}
