import { defineConfig } from 'vitest/config';

/** The suites start one api process each and share one PostgreSQL: one file at a time. */
export default defineConfig({
  test: {
    include: ['test/**/*.spec.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
