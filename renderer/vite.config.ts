import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The app is served by pawpath under /quote; the dev server proxies the API to it.
export default defineConfig({
  base: '/quote/',
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  // The first page needs React, rjsf and XState whatever the chunking; its size is measured by
  // scripts/bundle-report.mjs rather than warned about.
  // The manifest tells scripts/bundle-report.mjs which chunks the first page loads. Source maps
  // are made but not linked from the files ('hidden'); scripts/precompress.mjs moves them out of
  // the served folder.
  build: { outDir: 'dist', sourcemap: 'hidden', target: 'es2022', chunkSizeWarningLimit: 700, manifest: true },
  server: {
    proxy: {
      '/api': 'http://localhost:8080',
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
  },
});
