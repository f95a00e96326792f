/** Which fields are invalid, shared by the field template, the widgets and the error summary. */
import { createContext, useContext } from 'react';

import type { FieldMessage } from '@/shared/types';

/** `pets[0].pet_name` → rjsf's element id `root_pets_0_pet_name`. */
export function fieldId(field: string): string {
  return ['root', ...field.split(/[.[\]]+/).filter(Boolean)].join('_');
}

/** rjsf's path for a field (`['pets', 0, 'pet_name']`) → `pets[0].pet_name`. */
export function fieldFromPath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${part}` : part), '');
}

export const FieldErrorsContext = createContext<ReadonlyMap<string, string>>(new Map());

export function toErrorMap(errors: readonly FieldMessage[]): Map<string, string> {
  return new Map(errors.map((e) => [fieldId(e.field), e.message]));
}

/** The error message of the field whose element id is `id`, if any. */
export function useFieldError(id: string): string | undefined {
  return useContext(FieldErrorsContext).get(id);
}

/** The ids a control is described by: its error, then its hint. */
export function describedBy(id: string, hasError: boolean, hasHelp: boolean): string | undefined {
  const ids = [hasError ? `${id}__error` : '', hasHelp ? `${id}__help` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

export const CopyContext = createContext<Record<string, string>>({});
