/**
 * A JSON Schema (draft-07) validator that interprets the schema the server sent, as the server's
 * jsonschema crate does: no code is generated, so nothing needs 'unsafe-eval', and a question
 * set a product team changed is checked by its new rules on the next page load, with nothing
 * rebuilt.
 *
 * It interprets the keywords `pawpath check` lets a question set use
 * (engine/src/checks/lint/schema_keywords.rs, SCHEMA_KEYWORDS: the two lists are held together by
 * the lint's test, which reads this file) and reports every failure as Ajv did, which is what the
 * message mapping in messages.ts reads: the failing keyword's schema location, the instance's
 * location, and for `required` the missing property. The parity cases (tests/parity/cases.json)
 * hold its verdicts to the server's, word for word, for every question set of every journey.
 */

export interface SchemaError {
  /** `/pets/0/pet_name` */
  instancePath: string;
  /** `#/properties/pets/items/properties/pet_name/minLength` */
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
}

type Json = unknown;
type Schema = boolean | Record<string, Json>;

/** The string formats the questions may assert; an unknown format asserts nothing (as on the server). */
const FORMATS: Record<string, (value: string) => boolean> = {
  date: isDate,
};

const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A real calendar date written YYYY-MM-DD (RFC 3339 full-date). */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : DAYS[month]);
}

/** Patterns are compiled once each (a RegExp from a string is not eval: CSP allows it). */
const patterns = new Map<string, RegExp | null>();

function pattern(source: string): RegExp | null {
  let re = patterns.get(source);
  if (re === undefined) {
    try {
      re = new RegExp(source, 'u');
    } catch {
      re = null;
    }
    patterns.set(source, re);
  }
  return re;
}

function escape(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}

function isObject(value: Json): value is Record<string, Json> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function typeMatches(type: string, value: Json): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return false;
  }
}

/** Equality as JSON Schema means it: by value, objects regardless of key order, 1 = 1.0. */
export function equal(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && equal(a[k], b[k]));
  }
  return false;
}

/** Characters as the server counts them: Unicode code points, not UTF-16 units. */
function length(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

// Form data may hold a key whose value is undefined (a cleared field): it is absent, as in JSON.

class Walk {
  readonly errors: SchemaError[] = [];

  constructor(private readonly stopAtFirst: boolean) {}

  private fail(instancePath: string, schemaPath: string, keyword: string, params: Record<string, unknown> = {}): boolean {
    this.errors.push({ instancePath, schemaPath: `#${schemaPath}/${keyword}`, keyword, params });
    return this.stopAtFirst;
  }

  private valid(schema: Json, value: Json): boolean {
    return new Walk(true).run(schema, value, '', '');
  }

  /** Checks `value` against `schema`; true when it should stop (a first failure was asked for). */
  private check(schema: Json, value: Json, sp: string, ip: string): boolean {
    if (schema === false) return this.fail(ip, sp, 'false schema');
    if (!isObject(schema)) return false;
    const s = schema;
    for (const keyword of Object.keys(s)) {
      if (this.keyword(keyword, s, value, sp, ip)) return true;
    }
    return false;
  }

  run(schema: Json, value: Json, sp: string, ip: string): boolean {
    this.check(schema, value, sp, ip);
    return this.errors.length === 0;
  }

  private keyword(keyword: string, s: Record<string, Json>, value: Json, sp: string, ip: string): boolean {
    const arg = s[keyword];
    switch (keyword) {
      case 'type': {
        const types = Array.isArray(arg) ? arg : [arg];
        if (!types.some((t) => typeof t === 'string' && typeMatches(t, value))) return this.fail(ip, sp, 'type', { type: arg });
        return false;
      }
      case 'enum':
        if (Array.isArray(arg) && !arg.some((x) => equal(x, value))) return this.fail(ip, sp, 'enum', { allowedValues: arg });
        return false;
      case 'const':
        if (!equal(arg, value)) return this.fail(ip, sp, 'const', { allowedValue: arg });
        return false;
      case 'not':
        if (this.valid(arg, value)) return this.fail(ip, sp, 'not');
        return false;
      case 'allOf':
        if (Array.isArray(arg)) {
          for (let i = 0; i < arg.length; i++) if (this.check(arg[i], value, `${sp}/allOf/${i}`, ip)) return true;
        }
        return false;
      case 'anyOf':
        if (Array.isArray(arg) && !arg.some((sub) => this.valid(sub, value))) return this.fail(ip, sp, 'anyOf');
        return false;
      case 'oneOf':
        if (Array.isArray(arg) && arg.filter((sub) => this.valid(sub, value)).length !== 1) return this.fail(ip, sp, 'oneOf');
        return false;
      case 'if': {
        const branch = this.valid(arg, value) ? 'then' : 'else';
        if (branch in s) return this.check(s[branch], value, `${sp}/${branch}`, ip);
        return false;
      }
      case 'properties':
        if (isObject(arg) && isObject(value)) {
          for (const name of Object.keys(arg)) {
            if (value[name] !== undefined && this.check(arg[name], value[name], `${sp}/properties/${escape(name)}`, `${ip}/${escape(name)}`)) return true;
          }
        }
        return false;
      case 'required':
        if (Array.isArray(arg) && isObject(value)) {
          for (const name of arg) {
            if (typeof name === 'string' && value[name] === undefined && this.fail(ip, sp, 'required', { missingProperty: name })) return true;
          }
        }
        return false;
      case 'additionalProperties':
        if (isObject(value)) {
          const declared = isObject(s.properties) ? s.properties : {};
          for (const name of Object.keys(value)) {
            if (name in declared || value[name] === undefined) continue;
            if (arg === false) {
              if (this.fail(ip, sp, 'additionalProperties', { additionalProperty: name })) return true;
            } else if (this.check(arg, value[name], `${sp}/additionalProperties`, `${ip}/${escape(name)}`)) return true;
          }
        }
        return false;
      case 'items':
        if (Array.isArray(value)) {
          for (let i = 0; i < value.length; i++) {
            const sub = Array.isArray(arg) ? arg[i] : arg;
            const at = Array.isArray(arg) ? `${sp}/items/${i}` : `${sp}/items`;
            if (sub !== undefined && this.check(sub, value[i], at, `${ip}/${i}`)) return true;
          }
        }
        return false;
      case 'minItems':
        if (Array.isArray(value) && typeof arg === 'number' && value.length < arg) return this.fail(ip, sp, 'minItems', { limit: arg });
        return false;
      case 'maxItems':
        if (Array.isArray(value) && typeof arg === 'number' && value.length > arg) return this.fail(ip, sp, 'maxItems', { limit: arg });
        return false;
      case 'uniqueItems':
        if (arg === true && Array.isArray(value) && value.some((x, i) => value.slice(0, i).some((y) => equal(x, y)))) {
          return this.fail(ip, sp, 'uniqueItems');
        }
        return false;
      case 'minLength':
        if (typeof value === 'string' && typeof arg === 'number' && length(value) < arg) return this.fail(ip, sp, 'minLength', { limit: arg });
        return false;
      case 'maxLength':
        if (typeof value === 'string' && typeof arg === 'number' && length(value) > arg) return this.fail(ip, sp, 'maxLength', { limit: arg });
        return false;
      case 'pattern':
        if (typeof value === 'string' && typeof arg === 'string' && !pattern(arg)?.test(value)) return this.fail(ip, sp, 'pattern', { pattern: arg });
        return false;
      case 'format': {
        const test = typeof arg === 'string' ? FORMATS[arg] : undefined;
        if (typeof value === 'string' && test && !test(value)) return this.fail(ip, sp, 'format', { format: arg });
        return false;
      }
      case 'minimum':
        if (typeof value === 'number' && typeof arg === 'number' && value < arg) return this.fail(ip, sp, 'minimum', { limit: arg });
        return false;
      case 'maximum':
        if (typeof value === 'number' && typeof arg === 'number' && value > arg) return this.fail(ip, sp, 'maximum', { limit: arg });
        return false;
      case 'exclusiveMinimum':
        if (typeof value === 'number' && typeof arg === 'number' && value <= arg) return this.fail(ip, sp, 'exclusiveMinimum', { limit: arg });
        return false;
      case 'exclusiveMaximum':
        if (typeof value === 'number' && typeof arg === 'number' && value >= arg) return this.fail(ip, sp, 'exclusiveMaximum', { limit: arg });
        return false;
      case 'multipleOf':
        if (typeof value === 'number' && typeof arg === 'number' && arg > 0 && !Number.isInteger(Number((value / arg).toPrecision(12)))) {
          return this.fail(ip, sp, 'multipleOf', { multipleOf: arg });
        }
        return false;
      default:
        // Annotations (title, default, x-errors, …), and `then`/`else`, read with `if`.
        return false;
    }
  }
}

/** Every failure of `value` against `schema`, in the order the schema is written. */
export function validate(schema: Json, value: Json): SchemaError[] {
  const walk = new Walk(false);
  walk.run(schema as Schema, value, '', '');
  return walk.errors;
}

/** Whether `value` is valid against `schema` (stops at the first failure). */
export function isValid(schema: Json, value: Json): boolean {
  return new Walk(true).run(schema as Schema, value, '', '');
}
