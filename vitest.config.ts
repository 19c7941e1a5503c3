import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Tests spawn real MCP servers; two cores cannot run many files at once without timing noise.
    maxWorkers: 2,
    // In CI, a test that fails is run again (up to twice): the suite starts dozens of real server processes
    // on a 2-core machine, where an occasional startup deadline is missed under load. A retry never hides:
    // scripts/run-tests.mjs (`npm test`) names every test that needed one in its summary, and a test that
    // passed only on its second retry fails the run (test/scripts/run-tests.test.ts).
    retry: process.env.CI ? 2 : 0,
  },
});
