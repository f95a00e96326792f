// Code split by page: code a page needs is loaded with the view that shows it, and
// what decides which code a view needs.
import { describe, expect, it } from 'vitest';

import { widgetNames, widgetReady } from '@/features/form/widgets/on-demand';
import { onDemand, prepareView } from './on-demand';
import { fieldModulesFor } from './rjsf-fields-on-demand';
import UriResolver, { hasSchemaRef, loadUriResolver } from './uri-on-demand';

describe('onDemand', () => {
  it('loads once, is ready after prepare, and tries again after a failed load', async () => {
    let calls = 0;
    let fail = true;
    const part = onDemand(async () => {
      calls += 1;
      if (fail) throw new Error('chunk missing');
      return () => null;
    });
    expect(part.ready()).toBe(false);
    await expect(part.prepare()).rejects.toThrow('chunk missing');
    fail = false;
    await part.prepare();
    await part.prepare();
    expect(part.ready()).toBe(true);
    expect(calls).toBe(2);
  });
});

describe('what a view needs loaded', () => {
  const view = {
    step: { view: 'form' },
    questions: { ui: { owner: { address: { 'ui:widget': 'addressSearch' } }, pets: { items: { pet_cost: { 'ui:widget': 'currency' } } } } },
    edits: { vet: { ui: { vet_name: { 'ui:widget': 'vetSearch' } } } },
  };

  it('names every widget in its forms and edit dialogs', () => {
    expect([...widgetNames(view)].sort()).toEqual(['addressSearch', 'currency', 'vetSearch']);
  });

  it('asks for the any-of field only where a schema has anyOf or oneOf, the layout fields for a layout ui:field', () => {
    expect(fieldModulesFor(view).size).toBe(0);
    expect([...fieldModulesFor({ schema: { properties: { a: { oneOf: [{ const: 1 }] } } } })]).toEqual(['MultiSchemaField']);
    expect(fieldModulesFor({ ui: { 'ui:field': 'LayoutGridField' } }).has('LayoutHeaderField')).toBe(true);
  });

  it('loads the URI resolver only for a schema $ref, not for the view data\'s numeric shared references', async () => {
    expect(hasSchemaRef({ products: [{ $ref: 0 }] })).toBe(false);
    expect(hasSchemaRef({ schema: { items: { $ref: '#/$defs/pet' } } })).toBe(true);
    expect(() => UriResolver.resolve('pawpath:questions/x', '#/a')).toThrow(/before its view was prepared/);
    await loadUriResolver();
    expect(UriResolver.resolve('pawpath:questions/x', '#/$defs/pet')).toBe('pawpath:questions/x#/$defs/pet');
    expect(UriResolver.equal('pawpath:questions/x', 'pawpath:questions/x')).toBe(true);
  });

  it('prepares the widgets a view names before it is drawn', async () => {
    expect(widgetReady('sortCode')).toBe(false);
    await prepareView({ questions: { ui: { payment: { sort_code: { 'ui:widget': 'sortCode' } } } } });
    expect(widgetReady('sortCode')).toBe(true);
    expect(widgetReady('addressSearch')).toBe(false);
  });
});
