/**
 * Vitest settings shared by the service workspaces: SWC compiles the TypeScript so that
 * Nest's decorator metadata (emitDecoratorMetadata) exists at test time, and the suites run
 * one file at a time because they share one PostgreSQL and one Kafka broker.
 */
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

export const serviceTestConfig = defineConfig({
  plugins: [swc.vite({ module: { type: 'es6' } })],
  test: {
    include: ['src/**/*.spec.ts', 'test/**/*.spec.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
