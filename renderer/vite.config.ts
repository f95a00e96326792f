import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';

// Two of rjsf's imports come through modules that load them only when a page needs them (the first
// page's script): the Markdown parser (src/shared/markdown-on-demand.tsx) and the
// URI resolver for schema $refs (src/shared/uri-on-demand.ts). Only rjsf's imports are redirected;
// those modules import the real packages.
const onDemandForRjsf: Record<string, string> = {
  'markdown-to-jsx/react': './src/shared/markdown-on-demand.tsx',
  'fast-uri': './src/shared/uri-on-demand.ts',
};
// And rjsf's fields no question set draws (any-of/one-of and the layout grid) get stand-ins that
// load the real field when a view needs it (src/shared/rjsf-fields-on-demand.ts says when).
const onDemandFields = ['LayoutGridField', 'LayoutHeaderField', 'LayoutMultiSchemaField', 'MultiSchemaField'];
const standIn = '\0pawpath-field-on-demand:';
const src = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const rjsfOnDemand: Plugin = {
  name: 'pawpath-rjsf-on-demand',
  enforce: 'pre',
  resolveId(source, importer) {
    const target = onDemandForRjsf[source];
    if (target && importer?.includes('/node_modules/@rjsf/')) return src(target);
    const field = /^\.\/(\w+)\.js$/.exec(source)?.[1];
    if (field && onDemandFields.includes(field) && importer?.endsWith('/@rjsf/core/lib/components/fields/index.js')) return standIn + field;
    return null;
  },
  load(id) {
    if (!id.startsWith(standIn)) return null;
    const field = id.slice(standIn.length);
    return [
      `import { onDemand } from ${JSON.stringify(src('./src/shared/on-demand.tsx'))};`,
      `import { registerField } from ${JSON.stringify(src('./src/shared/rjsf-fields-on-demand.ts'))};`,
      `const field = onDemand(() => import('@rjsf/core/lib/components/fields/${field}.js').then((m) => m.default));`,
      `registerField(${JSON.stringify(field)}, field);`,
      'export default field.Component;',
    ].join('\n');
  },
};

// The app is served by pawpath under /quote; the dev server proxies the API to it.
export default defineConfig({
  base: '/quote/',
  plugins: [rjsfOnDemand, react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  // The first page needs React, rjsf and XState whatever the chunking; its size is measured by
  // scripts/bundle-report.mjs rather than warned about.
  // Source maps are made but not linked from the files ('hidden'); scripts/precompress.mjs moves them out of
  // the served folder.
  build: { modulePreload: { polyfill: false }, outDir: 'dist', sourcemap: 'hidden', target: 'es2022', chunkSizeWarningLimit: 700 },
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    // Most tests are of plain functions; a test that needs a page says so in its first line
    // (`// @vitest-environment jsdom`), so the others do not pay for one.
    environment: 'node',
  },
});
