/**
 * rjsf's fields that no question set here draws, loaded only for a view that needs them (the first
 * page's script): the any-of/one-of field (a schema with `anyOf` or `oneOf`) and
 * the layout-grid fields (a `ui:field` naming one). vite.config.ts gives rjsf's field registry a
 * stand-in for each, made with `onDemand`; this module says when a view needs their code.
 */
import { type OnDemand, whenViewArrives } from './on-demand';

const fields = new Map<string, OnDemand<object>>();

/** Called by each stand-in (see vite.config.ts) with rjsf's name for its module. */
export function registerField(module: string, field: OnDemand<object>) {
  fields.set(module, field);
}

/** Which of the stand-ins' modules a view needs: by `anyOf`/`oneOf` keys and `ui:field` names. */
export function fieldModulesFor(view: unknown): Set<string> {
  const wanted = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(v)) wanted.add('MultiSchemaField');
        if (key === 'ui:field' && typeof v === 'string' && v.startsWith('Layout')) {
          for (const m of ['LayoutGridField', 'LayoutHeaderField', 'LayoutMultiSchemaField', 'MultiSchemaField']) wanted.add(m);
        }
        walk(v);
      }
    }
  };
  walk(view);
  return wanted;
}

whenViewArrives((view) => Promise.all([...fieldModulesFor(view)].map((m) => fields.get(m)?.prepare())));
