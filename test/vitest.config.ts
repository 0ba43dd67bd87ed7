import { defineProject } from 'vitest/config';

// Cross-process, browser and fault tests start servers, workers and browsers: one file at a time.
export default defineProject({
  test: {
    name: 'test',
    environment: 'node',
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
