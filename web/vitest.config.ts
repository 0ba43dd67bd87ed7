import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineProject } from 'vitest/config';

// Component tests render Svelte 5 components in jsdom; end-to-end tests live in test/e2e.
export default defineProject({
  plugins: [svelte()],
  resolve: {
    conditions: ['browser'],
    alias: { $lib: fileURLToPath(new URL('./src/lib', import.meta.url)) },
  },
  test: { name: 'web', environment: 'jsdom', include: ['src/**/*.test.ts'] },
});
