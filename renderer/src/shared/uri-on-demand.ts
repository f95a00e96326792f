/**
 * fast-uri for rjsf, loaded only for a view whose schemas hold a `$ref`. @rjsf/utils
 * imports it to resolve `$ref`s against a schema's `$id`, and calls it for nothing else; the
 * question sets here have none, and statically it is 23 KB of the first page's script.
 * vite.config.ts points rjsf's import here. A view's code is prepared before it is drawn: one
 * whose forms name a `$ref` loads the real resolver first, so rjsf always calls the real one.
 */
import { whenViewArrives } from './on-demand';

interface Resolver {
  resolve: (base: string, ref: string, options?: unknown) => string;
  equal: (a: unknown, b: unknown, options?: unknown) => boolean;
}

let real: Resolver | null = null;
let pending: Promise<void> | null = null;

export function loadUriResolver(): Promise<void> {
  pending ??= import('fast-uri').then(
    (m) => {
      real = ((m as { default?: Resolver }).default ?? m) as Resolver;
    },
    (e: unknown) => {
      pending = null;
      throw e;
    },
  );
  return pending;
}

function resolver(): Resolver {
  if (!real) throw new Error('a schema $ref was resolved before its view was prepared (fast-uri not loaded)');
  return real;
}

/** Whether a schema anywhere in the value names a `$ref` (a string; the view's own numeric ones are not). */
export function hasSchemaRef(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasSchemaRef);
  if (value && typeof value === 'object') {
    return Object.entries(value).some(([key, v]) => (key === '$ref' && typeof v === 'string') || hasSchemaRef(v));
  }
  return false;
}

whenViewArrives((view) => (hasSchemaRef(view) ? loadUriResolver() : undefined));

const UriResolver: Pick<Resolver, 'resolve' | 'equal'> = {
  resolve: (base, ref, options) => resolver().resolve(base, ref, options),
  equal: (a, b, options) => resolver().equal(a, b, options),
};

export default UriResolver;
