// The bundle-size report: what the first page downloads, raw and gzipped, written to
// dist/bundle-report.json and printed. Fails the build if the first page's JavaScript is over
// its budget (150 KB gzipped) or a schema compiler slipped in.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const firstPage = [...html.matchAll(/(?:src|href)="\/quote\/(assets\/[^"]+)"/g)].map((m) => m[1]);

// The first page validates with the schema the server sends, interpreted by code in the main
// bundle (src/features/form/json-schema.ts): there is no per-set chunk to add.
const rows = firstPage.map((file) => {
  const bytes = readFileSync(join(dist, file));
  // brotli as the server sends it: the copy scripts/precompress.mjs wrote beside the file.
  const br = existsSync(join(dist, `${file}.br`))
    ? statSync(join(dist, `${file}.br`)).size
    : brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }).length;
  return { file, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, br };
});
const total = rows.reduce((t, r) => ({ bytes: t.bytes + r.bytes, gzip: t.gzip + r.gzip, br: t.br + r.br }), { bytes: 0, gzip: 0, br: 0 });
for (const file of readdirSync(join(dist, 'assets')).filter((f) => f.endsWith('.js'))) {
  const code = readFileSync(join(dist, 'assets', file), 'utf8');
  if (/new Function\(|\beval\(/.test(code)) {
    console.error(`${file} evaluates code at run time (a schema compiler?); the CSP forbids it`);
    process.exit(1);
  }
}
// The first page's script, gzipped (level 9) file by file, against its budget.
const SCRIPT_BUDGET_GZIP = 150_000;
const script = rows.filter((r) => r.file.endsWith('.js')).reduce((t, r) => t + r.gzip, 0);
writeFileSync(join(dist, 'bundle-report.json'), JSON.stringify({ firstPage: rows, total, script: { gzip: script, budget: SCRIPT_BUDGET_GZIP } }, null, 2));
console.log('First page downloads:');
const line = (name, r) => `  ${name.padEnd(40)} ${String(r.bytes).padStart(9)} B  ${String(r.gzip).padStart(8)} B gzip  ${String(r.br).padStart(8)} B br`;
for (const r of rows) console.log(line(r.file, r));
console.log(line('total', total));
console.log(`  first page JavaScript: ${script} B gzip of a ${SCRIPT_BUDGET_GZIP} B budget`);
if (script > SCRIPT_BUDGET_GZIP) {
  console.error(`the first page's JavaScript is ${script} B gzipped, over its ${SCRIPT_BUDGET_GZIP} B budget: load the new code with the page that needs it (src/shared/on-demand.tsx)`);
  process.exit(1);
}
