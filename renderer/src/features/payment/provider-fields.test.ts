// The card fields a provider draws in its own frame are the question set's to name
// (`ui:options.providerField`), at whatever depth; the page drops those and keeps the rest.
import { describe, expect, it } from 'vitest';

import card from '../../../../questions/card.json';
import type { QuestionsView } from '@/shared/types';
import { withoutProviderFields } from './ProviderCardFields';

type Node = { properties?: Record<string, Node>; required?: string[]; allOf?: unknown };

const view = (schema: unknown, ui: unknown): QuestionsView =>
  ({ id: 'x', schema: schema as QuestionsView['schema'], ui: ui as Record<string, unknown>, answers: {}, submit: null });

describe('the fields a card provider draws', () => {
  it('are those the card set marks, and only those', () => {
    const without = withoutProviderFields(view(card.schema, card.ui));
    const fields = (without.schema as Node).properties?.card;
    expect(Object.keys(fields?.properties ?? {})).toEqual(['card_name', 'address1', 'address2', 'address3', 'address4']);
    expect(fields?.required).toEqual(['card_name', 'address1', 'address3']);
    expect(fields?.allOf).toBeUndefined();
    expect((without.ui.card as Record<string, unknown>)['card_number']).toBeDefined();
    // The set as served is left as it was.
    expect(Object.keys((card.schema as Node).properties?.card?.properties ?? {})).toContain('card_number');
    expect(without.schema.$id).not.toEqual(card.schema.$id);
  });

  it('are found at any depth, whatever the set and its fields are called', () => {
    const schema = {
      $id: 'pawpath:questions/other',
      type: 'object',
      properties: {
        billing: {
          type: 'object',
          required: ['pan', 'holder'],
          properties: { pan: { type: 'string' }, holder: { type: 'string' } },
        },
        note: { type: 'string' },
      },
    };
    const ui = { billing: { 'ui:order': ['pan', 'holder'], pan: { 'ui:options': { providerField: 'number' } } }, note: {} };
    const without = withoutProviderFields(view(schema, ui));
    const billing = (without.schema as Node).properties?.billing;
    expect(Object.keys(billing?.properties ?? {})).toEqual(['holder']);
    expect(billing?.required).toEqual(['holder']);
    expect((without.ui.billing as Record<string, unknown>)['ui:order']).toEqual(['holder']);
    expect(Object.keys((without.schema as Node).properties ?? {})).toEqual(['billing', 'note']);
  });
});
