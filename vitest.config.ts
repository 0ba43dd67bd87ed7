import { defineConfig } from 'vitest/config';

// One vitest run over every workspace; each workspace has its own project config.
export default defineConfig({
  test: {
    projects: ['shared', 'embedded-mongo', 'server', 'workers', 'web', 'test'],
    globalSetup: ['test/support/global-setup.ts'],
    passWithNoTests: true,
  },
});
