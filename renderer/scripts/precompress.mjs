// After `vite build`: source maps out of the served folder, and a brotli and a gzip
// copy of every text file in dist/assets, which pawpath sends as they are to a browser that
// accepts them (ServeDir's precompressed files), so no request pays for compressing a file
// that never changes.
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const assets = join(dist, 'assets');
const maps = join(dist, 'sourcemaps');
mkdirSync(maps, { recursive: true });

const TEXT = /\.(js|mjs|css|svg|json|txt|html)$/;
let moved = 0;
let compressed = 0;
for (const name of readdirSync(assets)) {
  const file = join(assets, name);
  if (!statSync(file).isFile()) continue;
  if (name.endsWith('.map')) {
    renameSync(file, join(maps, name));
    moved += 1;
    continue;
  }
  if (!TEXT.test(name)) continue;
  const bytes = readFileSync(file);
  writeFileSync(
    `${file}.br`,
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  );
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  compressed += 1;
}
console.log(`precompressed ${compressed} files (br, gzip); ${moved} source maps kept in dist/sourcemaps, not served`);
