// Compiles every question schema under ../questions into standalone Ajv validation code at build
// time, so the browser validates with the very files the server uses and ships no schema
// compiler (nothing needs 'unsafe-eval'). Output: src/generated/ (not committed).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemaParser } from '@rjsf/utils';
import createAjvInstance from '@rjsf/validator-ajv8/lib/createAjvInstance.js';
import standaloneCode from 'ajv/dist/standalone/index.js';

/**
 * What @rjsf/validator-ajv8's compileSchemaValidatorsCode does (the same Ajv instance settings
 * and the same schema map, keyed by $id or hash), but as ES modules: Ajv needs export names
 * that are identifiers, so each key gets one and the index maps keys back.
 */
function compile(schema) {
  const schemaMap = schemaParser(schema);
  const keys = Object.keys(schemaMap);
  const names = Object.fromEntries(keys.map((key, i) => [`s${i}`, key]));
  const ajv = createAjvInstance(undefined, undefined, {
    code: { esm: true, lines: false, source: true },
    schemas: Object.values(schemaMap),
    // x-errors is an annotation both sides read, not a validation keyword.
    keywords: ['x-errors'],
  });
  return { code: esmImports(standaloneCode(ajv, names)), names };
}

/**
 * The modules generated code may import: Ajv's small runtime helpers, and our own formats in
 * place of ajv-formats (which would bring URI and e-mail parsers the questions never use).
 * Anything else fails the build, so nothing large slips into the first page unnoticed.
 */
function runtimeModule(name) {
  if (name === 'ajv-formats/dist/formats') return '../features/form/formats';
  if (/^ajv\/dist\/runtime\/[a-z0-9]+$/.test(name)) return `${name}.js`;
  throw new Error(`generated validator code needs ${name}; add it to runtimeModule() deliberately`);
}

/** Ajv's ESM output still calls require() for its small runtime helpers; make those imports. */
function esmImports(code) {
  const modules = [];
  const body = code.replace(/require\("([^"]+)"\)/g, (_, name) => {
    const spec = JSON.stringify(runtimeModule(name));
    let i = modules.indexOf(spec);
    if (i < 0) i = modules.push(spec) - 1;
    return `__runtime${i}`;
  });
  const imports = modules.map((spec, i) => `import * as __ns${i} from ${spec};`).join('\n');
  // Node hands a CommonJS module's exports over as the namespace's default; bundlers unwrap
  // modules marked __esModule. Normalise to the exports object either way.
  const interop = 'const __cjs = (ns) => (ns.default && typeof ns.default === "object" && ns.default.__esModule ? ns.default : ns);';
  const bindings = modules.map((_, i) => `const __runtime${i} = __cjs(__ns${i});`).join('\n');
  return `${imports}\n${interop}\n${bindings}\n${body.replace(/^"use strict";/, '')}`;
}

const here = dirname(fileURLToPath(import.meta.url));
const questions = join(here, '..', '..', 'questions');
const out = join(here, '..', 'src', 'generated');
mkdirSync(out, { recursive: true });

/** JSON Merge Patch (RFC 7396), as the server's loader applies it (engine definitions.rs merge_patch). */
function mergePatch(target, patch) {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return structuredClone(patch);
  const out = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

const files = readdirSync(questions)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((name) => ({ name, file: join(questions, name), set: JSON.parse(readFileSync(join(questions, name), 'utf8')) }));
// A set that extends another is the base's schema with its patch merged over it, under its own
// $id (questions/schemas/question-set.schema.json), exactly as the server resolves it.
for (const entry of files.filter((e) => e.set.extends)) {
  const base = files.find((e) => e.set.id === entry.set.extends && !e.set.extends);
  if (!base) throw new Error(`${entry.file}: /extends names no question set of its own (${entry.set.extends})`);
  const schema = mergePatch(base.set.schema, entry.set.patch?.schema ?? {});
  schema.$id = `pawpath:questions/${entry.set.id}`;
  entry.set = { ...entry.set, schema };
}

const entries = [];
for (const { name, file, set } of files) {
  const schema = set.schema;
  if (!schema || typeof schema.$id !== 'string') {
    throw new Error(`${file}: /schema/$id is missing; the server's lint names this too`);
  }
  const { code, names } = compile(schema);
  const module = `validators-${set.id}.js`;
  writeFileSync(join(out, module), `// Generated from questions/${name} by scripts/compile-validators.mjs. Do not edit.\n${code}\n`);
  entries.push({ id: schema.$id, module, setId: set.id, names });
}

// The index loads each set's validators on demand (a chunk of its own in the build): the first
// page downloads only the validators of the questions it shows (renderer/src/features/journey/
// api.ts loads those named in each view before handing the view over).
const index = [
  '// Generated by scripts/compile-validators.mjs. Do not edit.',
  "import type { ValidatorFunctions } from '@rjsf/validator-ajv8';",
  '',
  'type Module = Record<string, unknown>;',
  '',
  '/** Each question schema $id: its module, and which key each of its exports validates. */',
  'const sources: Record<string, { load: () => Promise<Module>; names: Record<string, string> }> = {',
  ...entries.map(
    (e) =>
      `  ${JSON.stringify(e.id)}: {\n    load: () => import('./${e.module}'),\n    names: ${JSON.stringify(e.names)},\n  },`,
  ),
  '};',
  '',
  '/** Every question schema $id with precompiled validators. */',
  'export const validatorIds: readonly string[] = Object.keys(sources);',
  '',
  'const loaded = new Map<string, ValidatorFunctions>();',
  '',
  '/** The validators of a question schema, once loadValidators has loaded them; else undefined. */',
  'export function validatorsFor(id: string): ValidatorFunctions | undefined {',
  '  return loaded.get(id);',
  '}',
  '',
  '/** Loads the validators of these question schemas; an $id with none is left for validatorsFor to report. */',
  'export async function loadValidators(ids: Iterable<string>): Promise<void> {',
  '  const wanted = [...new Set(ids)].filter((id) => !loaded.has(id) && id in sources);',
  '  await Promise.all(',
  '    wanted.map(async (id) => {',
  '      const { load, names } = sources[id];',
  '      const module = await load();',
  '      const fns = Object.fromEntries(Object.entries(names).map(([name, key]) => [key, module[name]]));',
  '      loaded.set(id, fns as unknown as ValidatorFunctions);',
  '    }),',
  '  );',
  '}',
  '',
].join('\n');
writeFileSync(join(out, 'validators.ts'), index);
console.log(`compiled ${entries.length} question schema(s): ${entries.map((e) => e.setId).join(', ')}`);
