import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts', 'eval/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A worker keeps one module graph across the files it runs instead of loading the whole server again for each:
    // loading was 212 of the in-process phase's 600 s in CI. Every file builds its own database, stores and servers
    // and closes them, so no state lives in a module between files (checked: the project passes the same without).
    isolate: false,
  },
});
