import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'embedded-mongo',
    environment: 'node',
    include: ['src/**/*.test.ts', 'conformance/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
