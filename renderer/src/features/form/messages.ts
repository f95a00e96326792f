/**
 * From Ajv's errors to one message per field, by the same rule the server applies
 * (engine/src/definitions/schema.rs `CompiledSchema::field_errors`): the failing keyword's `x-errors` copy key
 * in its subschema (for `required`, in the missing property's subschema), else the default key;
 * for each field, the failing keyword that comes first in the schema as written.
 */
import type { FieldMessage } from '@/shared/types';
import { text } from '@/shared/copy';

export interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
}

export const DEFAULT_REQUIRED_KEY = 'error.required';
export const DEFAULT_INVALID_KEY = 'error.invalid';

type Json = unknown;

function unescape(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

function escape(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function at(schema: Json, pointer: string): Json {
  let node: Json = schema;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = unescape(raw);
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, Json>)[segment];
  }
  return node;
}

/** `/pets/0/pet_name` → `pets[0].pet_name`. */
export function fieldName(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const segment = unescape(raw);
    if (segment !== '' && /^[0-9]+$/.test(segment)) out += `[${segment}]`;
    else out += (out ? '.' : '') + segment;
  }
  return out;
}

/** The position of a keyword in the schema as written: each step's index within its parent. */
export function schemaOrder(schema: Json, pointer: string): number[] {
  const out: number[] = [];
  let node: Json = schema;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = unescape(raw);
    if (Array.isArray(node)) {
      const i = Number(segment);
      out.push(Number.isInteger(i) ? i : Number.MAX_SAFE_INTEGER);
      node = node[i];
    } else if (node !== null && typeof node === 'object') {
      const keys = Object.keys(node as object);
      const i = keys.indexOf(segment);
      out.push(i < 0 ? Number.MAX_SAFE_INTEGER : i);
      node = (node as Record<string, Json>)[segment];
    } else break;
  }
  return out;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function messageKey(schema: Json, subschemaPointer: string, keyword: string): string {
  const sub = at(schema, subschemaPointer) as { 'x-errors'?: Record<string, unknown> } | undefined;
  const key = sub?.['x-errors']?.[keyword];
  if (typeof key === 'string') return key;
  return keyword === 'required' ? DEFAULT_REQUIRED_KEY : DEFAULT_INVALID_KEY;
}

export interface FieldKey {
  field: string;
  key: string;
}

/** One copy key per field, fields in the order their first error was reported. */
export function fieldKeys(schema: Json, errors: readonly AjvError[]): FieldKey[] {
  const best = new Map<string, { rank: number[]; key: string }>();
  for (const e of errors) {
    // Ajv also reports a failed if/then as an `if` error over the whole object; the keyword that
    // failed inside `then` is reported on its own field, which is what the customer needs.
    if (e.keyword === 'if') continue;
    const keywordLocation = e.schemaPath.replace(/^#/, '');
    const parent = keywordLocation.slice(0, keywordLocation.lastIndexOf('/'));
    let fieldPointer = e.instancePath;
    let subschema = parent;
    if (e.keyword === 'required') {
      const prop = String(e.params.missingProperty ?? '');
      fieldPointer = `${e.instancePath}/${escape(prop)}`;
      subschema = `${parent}/properties/${escape(prop)}`;
    }
    const field = fieldName(fieldPointer);
    const rank = schemaOrder(schema, keywordLocation);
    const existing = best.get(field);
    if (!existing || compare(rank, existing.rank) < 0) {
      best.set(field, { rank, key: messageKey(schema, subschema, e.keyword) });
    }
  }
  return [...best.entries()].map(([field, { key }]) => ({ field, key }));
}

export function fieldMessages(schema: Json, errors: readonly AjvError[], copy: Record<string, string>): FieldMessage[] {
  return fieldKeys(schema, errors).map(({ field, key }) => ({ field, message: text(copy, key) }));
}
