/**
 * rjsf templates: accessible markup for every field (label or legend, hint, error), pets as
 * sections with their own heading, and no add/remove controls (pets are added and removed
 * through their own calls).
 */
import type { ArrayFieldItemTemplateProps, ArrayFieldTemplateProps, FieldTemplateProps, ObjectFieldTemplateProps } from '@rjsf/utils';
import { useContext } from 'react';

import { text } from '@/shared/copy';
import { CopyContext, fieldFromPath, useFieldError } from './field-errors';

/** Widgets that draw their own fieldset and legend. */
const GROUP_WIDGETS = new Set(['radio', 'yesNo', 'dateParts', 'xlBully']);

export function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, rawHelp, hidden, uiSchema, schema, fieldPathId } = props;
  const error = useFieldError(id);
  const copy = useContext(CopyContext);
  if (hidden || uiSchema?.['ui:widget'] === 'hidden') return <div hidden>{children}</div>;
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

export function ObjectFieldTemplate({ properties }: ObjectFieldTemplateProps) {
  return <>{properties.filter((p) => !p.hidden).map((p) => p.content)}</>;
}

export function ArrayFieldTemplate({ items }: ArrayFieldTemplateProps) {
  return <div className="pets">{items}</div>;
}

export function ArrayFieldItemTemplate({ children, index, totalItems, registry }: ArrayFieldItemTemplateProps) {
  const copy = useContext(CopyContext);
  const formData = registry.formContext?.formData as { pets?: Array<{ pet_name?: string }> } | undefined;
  const name = formData?.pets?.[index]?.pet_name?.trim();
  const heading = name && name.length >= 2 ? text(copy, 'form.pet_heading_named', { name }) : text(copy, 'form.pet_heading');
  const headingId = `pet-${index}-heading`;
  return (
    <section className="pet" aria-labelledby={headingId}>
      <h2 id={headingId} className="pet__heading">
        {heading}
        {totalItems > 1 && <span className="visually-hidden"> ({index + 1} of {totalItems})</span>}
      </h2>
      <p className="pet__note">{text(copy, 'form.mandatory')}</p>
      {children}
    </section>
  );
}
