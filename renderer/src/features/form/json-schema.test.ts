// The interpreting validator on the keywords the question sets do not use today (the parity
// cases, tests/parity/cases.json, hold it to the server on every set that exists): each keyword
// `pawpath check` allows (engine/src/checks/lint/schema_keywords.rs) accepts and refuses as
// draft-07 says, with the location Ajv gave, which the message mapping reads.
import { describe, expect, it } from 'vitest';

import { equal, isDate, isValid, validate } from './json-schema';

const keywords = (schema: unknown, value: unknown) => validate(schema, value).map((e) => `${e.instancePath} ${e.schemaPath}`);

describe('the browser validator interprets the schema it is sent', () => {
  it.each([
    ['type list', { type: ['string', 'null'] }, null, 'x', 1],
    ['integer', { type: 'integer' }, 2, 2.0, 2.5],
    ['enum by value', { enum: [{ a: [1] }] }, { a: [1] }, { a: [1] }, { a: [2] }],
    ['const', { const: 'yes' }, 'yes', 'yes', 'no'],
    ['not', { not: { const: 'no' } }, 'yes', 'maybe', 'no'],
    ['anyOf', { anyOf: [{ type: 'string' }, { type: 'number' }] }, 1, 'a', true],
    ['oneOf', { oneOf: [{ minimum: 0 }, { maximum: 10 }] }, -1, 11, 5],
    ['uniqueItems', { uniqueItems: true }, [1, 2], [{ a: 1 }, { a: 2 }], [{ a: 1 }, { a: 1 }]],
    ['minimum and maximum', { minimum: 1, maximum: 3 }, 1, 3, 4],
    ['exclusive bounds', { exclusiveMinimum: 1, exclusiveMaximum: 3 }, 2, 2.5, 3],
    ['multipleOf', { multipleOf: 0.01 }, 4.5, 19.99, 1.005],
    ['lengths count characters, not UTF-16 units', { maxLength: 2 }, '🐶🐱', 'ab', 'abc'],
    ['pattern (Unicode)', { pattern: '^\\p{L}+$' }, 'Zoë', 'Biscuit', 'R2'],
    ['format date', { format: 'date' }, '2024-02-29', '2023-12-31', '2023-02-29'],
    ['an unknown format asserts nothing', { format: 'colour' }, 'x', 'y', null],
  ])('%s', (_, schema, good, alsoGood, bad) => {
    expect(isValid(schema, good)).toBe(true);
    expect(isValid(schema, alsoGood)).toBe(true);
    if (bad !== null) expect(isValid(schema, bad)).toBe(false);
  });

  it('reports where each failure is, as the message mapping reads it', () => {
    const schema = {
      type: 'object',
      required: ['pets'],
      properties: {
        pets: {
          type: 'array',
          items: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string', minLength: 2 } },
            additionalProperties: false,
            allOf: [{ if: { properties: { kind: { const: 'dog' } }, required: ['kind'] }, then: { required: ['breed'] } }],
          },
        },
      },
    };
    expect(keywords(schema, {})).toEqual([' #/required']);
    expect(keywords(schema, { pets: [{ name: 'R', kind: 'dog' }] })).toEqual([
      '/pets/0/name #/properties/pets/items/properties/name/minLength',
      '/pets/0 #/properties/pets/items/additionalProperties',
      '/pets/0 #/properties/pets/items/allOf/0/then/required',
    ]);
    expect(validate(schema, { pets: [{}] })[0].params).toEqual({ missingProperty: 'name' });
  });

  it('takes a key whose value is undefined (a cleared field) as absent', () => {
    const schema = { required: ['a'], properties: { a: { type: 'string' } } };
    expect(keywords(schema, { a: undefined })).toEqual([' #/required']);
  });

  it('takes tuple items and a schema for additional properties', () => {
    expect(isValid({ items: [{ type: 'string' }, { type: 'number' }] }, ['a', 1, true])).toBe(true);
    expect(isValid({ items: [{ type: 'string' }, { type: 'number' }] }, [1, 'a'])).toBe(false);
    expect(keywords({ properties: { a: {} }, additionalProperties: { type: 'number' } }, { a: 'x', b: 'y' })).toEqual([
      '/b #/additionalProperties/type',
    ]);
  });

  it('refuses everything under a false schema, and a pattern it cannot read', () => {
    expect(isValid(false, 1)).toBe(false);
    expect(isValid(true, 1)).toBe(true);
    expect(isValid({ pattern: '(' }, 'x')).toBe(false);
  });

  it('compares as JSON does', () => {
    expect(equal({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(equal([1], { 0: 1 })).toBe(false);
    expect(isDate('2100-02-29')).toBe(false);
    expect(isDate('2000-02-29')).toBe(true);
  });
});
