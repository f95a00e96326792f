// No circle of imports in src/ (the renderer's floors hold only if nothing leads back up):
// every import of every .ts and .tsx file, through the @ alias or a relative path, followed;
// the first circle found is printed and the command fails. Run by `npm run lint`.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : files(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function resolveImport(from, spec) {
  let base;
  if (spec.startsWith('@/')) base = join(src, spec.slice(2));
  else if (spec.startsWith('.')) base = resolve(dirname(from), spec);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile() && /\.(ts|tsx)$/.test(candidate)) return candidate;
  }
  return null;
}

const graph = new Map();
for (const file of files(src)) {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'([^']+)'|(?:^|\n)\s*import\s+'([^']+)'|import\('([^']+)'\)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
  graph.set(file, specs.map((s) => resolveImport(file, s)).filter(Boolean));
}

const state = new Map();
const stack = [];
function visit(file) {
  state.set(file, 'open');
  stack.push(file);
  for (const next of graph.get(file) ?? []) {
    if (state.get(next) === 'open') return [...stack.slice(stack.indexOf(next)), next];
    if (!state.has(next)) {
      const circle = visit(next);
      if (circle) return circle;
    }
  }
  stack.pop();
  state.set(file, 'done');
  return null;
}
for (const file of graph.keys()) {
  if (state.has(file)) continue;
  const circle = visit(file);
  if (circle) {
    console.error(`A circle of imports in renderer/src:\n  ${circle.map((f) => relative(src, f)).join('\n  → ')}`);
    process.exit(1);
  }
}
console.log(`no circle among ${graph.size} files' imports`);
