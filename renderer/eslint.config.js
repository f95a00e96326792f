// The renderer's lint: ESLint's and TypeScript's recommended rules, React's rules of hooks, and
// the floors the code stands in, which nothing else checks:
//   app      draws the pages (src/app/);
//   pages    one folder of src/features/ per page a step's view names; a page uses parts and
//            shared code, never another page (what two pages share moves down to a part);
//   parts    folders of src/features/ that pages share (forms, the journey machine, the shell,
//            products, codes, preferences, breeds); never a page, never the app;
//   shared   src/shared/: plain code every floor uses; no feature, no app.
// A folder added to src/features/ must be named below as a page or a part: the lint fails on one
// that is neither.
import { readdirSync } from 'node:fs';

import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export const PAGES = ['assumptions', 'confirmation', 'cover', 'pages', 'payment', 'rehoming', 'retrieve', 'review'];
export const PARTS = ['breeds', 'codes', 'form', 'journey', 'preferences', 'products', 'shell'];

const features = readdirSync(new URL('./src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const unnamed = features.filter((name) => !PAGES.includes(name) && !PARTS.includes(name));
if (unnamed.length > 0) {
  throw new Error(`eslint.config.js: src/features/${unnamed.join(', src/features/')} is neither a page nor a part: name it in PAGES or PARTS`);
}

/** Imports of these features, however written (the @ alias or a relative path). */
const importsOf = (names) => names.flatMap((name) => [`@/features/${name}`, `@/features/${name}/**`, `**/features/${name}/**`, `../${name}/**`, `../${name}`]);
const forbid = (files, groups, message) => ({
  files,
  // A test may reach across floors to prove how they meet; it is never shipped.
  ignores: ['**/*.test.ts', '**/*.test.tsx'],
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group: groups, message }] }] },
});

export default tseslint.config(
  { ignores: ['dist/**', 'src/generated/**', 'node_modules/**', 'eslint-fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['*.js', 'scripts/**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      // A function a reader can hold, as the server's (clippy.toml): a page component past 150
      // lines is split by what it shows.
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // A test reads as the story of one behaviour, start to end.
    files: ['src/**/*.test.{ts,tsx}'],
    rules: { 'max-lines-per-function': 'off' },
  },
  ...PAGES.map((page) =>
    forbid([`src/features/${page}/**`], [...importsOf(PAGES.filter((p) => p !== page)), '@/app/**', '**/app/**'], `A page uses parts and shared code, never another page (${page}): move what two pages share to a part.`),
  ),
  forbid(PARTS.map((part) => `src/features/${part}/**`), [...importsOf(PAGES), '@/app/**', '**/app/**'], 'A part never uses a page or the app.'),
  forbid(['src/shared/**'], ['@/features/**', '**/features/**', '@/app/**', '**/app/**'], 'Shared code uses no feature and not the app.'),
);
