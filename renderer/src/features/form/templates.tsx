/**
 * rjsf templates: accessible markup for every field (label or legend, hint, error), pets as
 * sections with their own heading, and no add/remove controls (pets are added and removed
 * through their own calls).
 */
import type { ArrayFieldItemTemplateProps, ArrayFieldTemplateProps, FieldTemplateProps, ObjectFieldTemplateProps } from '@rjsf/utils';
import { useContext } from 'react';

import { text } from '@/shared/copy';
import { breedName } from '@/features/breeds/breed-store';
import { useBreedData } from '@/features/breeds/breeds-context';
import { CopyContext, fieldFromPath, useFieldError } from './field-errors';
import { usePetActions } from './pet-actions';
import './form.css';

/** Widgets that draw their own fieldset and legend. */
const GROUP_WIDGETS = new Set(['sortCode', 'radio', 'yesNo', 'dateParts', 'xlBully', 'confirmTick', 'checkbox', 'vetSearch', 'startDate', 'addressSearch']);

export function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, rawHelp, hidden, uiSchema, schema, fieldPathId } = props;
  const error = useFieldError(id);
  const copy = useContext(CopyContext);
  if (hidden || uiSchema?.['ui:widget'] === 'hidden' || uiSchema?.['ui:field'] === 'nothing') return <div hidden>{children}</div>;
  if (schema.type === 'object' || schema.type === 'array') return children;
  const widget = String(uiSchema?.['ui:widget'] ?? '');
  const grouped = GROUP_WIDGETS.has(widget);
  return (
    <div className={`field${error ? ' field--error' : ''}`} data-field={fieldFromPath(fieldPathId.path)}>
      {!grouped && (
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
      )}
      {!grouped && rawHelp && (
        <p className="field__help" id={`${id}__help`}>
          {rawHelp}
        </p>
      )}
      {!grouped && error && (
        <p className="field__error" id={`${id}__error`}>
          <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
          {error}
        </p>
      )}
      {children}
    </div>
  );
}

/** The legend, hint and error of a widget that is a group of controls. */
export function GroupHead({ id, label, help }: { id: string; label: string; help?: string }) {
  const error = useFieldError(id);
  const copy = useContext(CopyContext);
  return (
    <>
      <legend className="field__label">{label}</legend>
      {help && (
        <p className="field__help" id={`${id}__help`}>
          {help}
        </p>
      )}
      {error && (
        <p className="field__error" id={`${id}__error`}>
          <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
          {error}
        </p>
      )}
    </>
  );
}

export function ObjectFieldTemplate({ properties, uiSchema, title, description, fieldPathId }: ObjectFieldTemplateProps) {
  const introKey = (uiSchema?.['ui:options'] as Record<string, unknown> | undefined)?.showExcludedBreeds;
  // A titled group of questions inside a form (marketing preferences): a fieldset and legend.
  const titled = typeof uiSchema?.['ui:title'] === 'string' && fieldPathId.path.length > 1;
  if (titled) {
    const help = typeof uiSchema?.['ui:help'] === 'string' ? (uiSchema['ui:help'] as string) : undefined;
    const helpId = `${fieldPathId.$id}__help`;
    return (
      <fieldset className="choice group" id={fieldPathId.$id} aria-describedby={help ? helpId : undefined}>
        <legend className="field__label">{title}</legend>
        {help && (
          <p className="field__help" id={helpId}>
            {help}
          </p>
        )}
        {properties.filter((p) => !p.hidden).map((p) => p.content)}
      </fieldset>
    );
  }
  void description;
  return (
    <>
      {typeof introKey === 'string' && <ExcludedBreeds introKey={introKey} />}
      {properties.filter((p) => !p.hidden).map((p) => p.content)}
    </>
  );
}

/** The breeds we cannot insure, from the breed data (the crossbreed page). */
function ExcludedBreeds({ introKey }: { introKey: string }) {
  const copy = useContext(CopyContext);
  const { lists } = useBreedData();
  const excluded = lists ? [...lists.dog_breed_data.breedData, ...lists.dog_breed_data.crossbreedData].filter((b) => b.exclude) : [];
  return (
    <div className="panel panel--info excluded-breeds">
      <p>{text(copy, introKey)}</p>
      <ul>
        {excluded.map((b) => (
          <li key={b.id}>{breedName(b)}</li>
        ))}
      </ul>
    </div>
  );
}

export function ArrayFieldTemplate({ items, uiSchema, schema, registry }: ArrayFieldTemplateProps) {
  const copy = useContext(CopyContext);
  const { add } = usePetActions();
  const addLabel = (uiSchema?.['ui:options'] as Record<string, unknown> | undefined)?.addItemLabel;
  // A modal that edits one pet adds none (pets are added on the page that asks about them).
  const room =
    registry.formContext?.onlyPet === undefined && (typeof schema.maxItems !== 'number' || items.length < schema.maxItems);
  return (
    <div className="pets">
      {items}
      {typeof addLabel === 'string' && room && (
        <button type="button" className="button button--secondary add-pet" onClick={add}>
          {text(copy, addLabel)}
        </button>
      )}
    </div>
  );
}

export function ArrayFieldItemTemplate({ children, index, totalItems, registry, parentUiSchema }: ArrayFieldItemTemplateProps) {
  const copy = useContext(CopyContext);
  const { askRemove, edit, folded } = usePetActions();
  // A modal that edits one pet draws that pet's questions only, under the modal's own title.
  const onlyPet = registry.formContext?.onlyPet as number | undefined;
  if (onlyPet !== undefined) return index === onlyPet ? <div className="modal-pet">{children}</div> : null;
  const options = (parentUiSchema?.['ui:options'] as Record<string, unknown> | undefined) ?? {};
  const formData = registry.formContext?.formData as { pets?: Array<Record<string, unknown>> } | undefined;
  const pet = formData?.pets?.[index] ?? {};
  const name = typeof pet.pet_name === 'string' ? pet.pet_name.trim() : '';
  const named = typeof options.itemHeading === 'string' ? options.itemHeading : 'form.pet_heading_named';
  const heading = name && name.length >= 2 ? text(copy, named, { name }) : text(copy, 'form.pet_heading');
  const note = typeof options.itemNote === 'string' ? options.itemNote : 'form.mandatory';
  const removable = typeof options.removeItemLabel === 'string' && totalItems > 1;
  const headingId = `pet-${index}-heading`;
  const isFolded = folded.has(index);
  return (
    <section className={`pet${isFolded ? ' pet--folded' : ''}`} aria-labelledby={headingId}>
      <h2 id={headingId} className="pet__heading">
        {heading}
        {totalItems > 1 && <span className="visually-hidden"> ({index + 1} of {totalItems})</span>}
      </h2>
      {isFolded ? (
        <>
          <PetSummary pet={pet} />
          <button type="button" className="button button--secondary edit-pet" onClick={() => edit(index)}>
            {text(copy, 'button.edit_pet_named', { name })}
          </button>
        </>
      ) : (
        <p className="pet__note">{text(copy, note)}</p>
      )}
      {/* A folded pet's questions stay in the form, so its answers are sent with the others. */}
      <div hidden={isFolded}>{children}</div>
      {removable && (
        <button type="button" className="button button--secondary remove-pet" onClick={() => askRemove(index)}>
          {name && name.length >= 2 ? text(copy, 'button.remove_pet_named', { name }) : text(copy, options.removeItemLabel as string)}
        </button>
      )}
    </section>
  );
}

/** A finished pet in one line: species, breed, sex and date of birth ("Dog, Beagle, male, born 01/02/2023"). */
function PetSummary({ pet }: { pet: Record<string, unknown> }) {
  const copy = useContext(CopyContext);
  const { byId } = useBreedData();
  const parts: string[] = [];
  if (typeof pet.pet_type === 'string') parts.push(text(copy, `pet.type.${pet.pet_type}`));
  const breed = typeof pet.pet_breed === 'string' ? byId.get(pet.pet_breed) : undefined;
  if (breed) parts.push(breedName(breed));
  if (typeof pet.pet_sex === 'string') parts.push(text(copy, `pet.sex.${pet.pet_sex}`));
  const dob = typeof pet.pet_date_of_birth === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(pet.pet_date_of_birth) : null;
  if (dob) parts.push(text(copy, 'form.pet_summary.born', { date: `${dob[3]}/${dob[2]}/${dob[1]}` }));
  return <p className="pet__summary">{parts.join(', ')}</p>;
}
