// Generates src/generated/views.ts from journeys/views.json (the views manifest): the names of
// the views and of the roles their modals play, so the renderer reads a page's modals by role
// and a role the manifest does not declare fails the type check. Output is not committed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(readFileSync(join(here, '..', '..', 'journeys', 'views.json'), 'utf8'));
const views = Object.keys(manifest.views).sort();
const roles = [...new Set(views.flatMap((v) => Object.keys(manifest.views[v].roles)))].sort();
const union = (names) => (names.length ? names.map((n) => JSON.stringify(n)).join(' | ') : 'never');
const out = join(here, '..', 'src', 'generated');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'views.ts'),
  [
    '// Generated from journeys/views.json by scripts/view-types.mjs. Do not edit.',
    "import type { QuestionsView } from '@/shared/types';",
    '',
    '/** The views the definitions may name (a step\'s `view`). */',
    `export type ViewName = ${union(views)};`,
    '',
    '/** The roles a view\'s modals play. */',
    `export type Role = ${union(roles)};`,
    '',
    '/** A page\'s modals by the role each plays; `id` is the question set bound to it, sent back as `form`. */',
    'export type Edits = Partial<Record<Role, QuestionsView>>;',
    '',
    '/** Each view\'s roles, for code that asks which a view reads. */',
    'export const viewRoles: Record<ViewName, readonly Role[]> = {',
    ...views.map((v) => `  ${v}: [${Object.keys(manifest.views[v].roles).map((r) => JSON.stringify(r)).join(', ')}],`),
    '};',
    '',
  ].join('\n'),
);
console.log(`views: ${views.length}, roles: ${roles.length}`);
