import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Workspace packages (@service/adapter-utils) are tested from source, not from their build.
  resolve: { conditions: ['source'] },
  // Tests run in Vite's SSR environment, which takes its own conditions: without this the package's
  // `default` (its dist/, possibly stale or missing) would be used instead of its source.
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    // Board UI tests may be .tsx; they choose jsdom per file (`// @vitest-environment jsdom`).
    include: ['test/**/*.test.ts', 'test/unit/renderer/**/*.test.tsx'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    // Every API test boots a real core on a real SQLite file; two workers fit CI's two cores.
    // Each file keeps its own process (isolation on): sharing a worker's modules across files took
    // vitest from 504 to 269 s on two cores, but in a shuffled order ten files failed on state an
    // earlier file had left in a module.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    // Every answer is also checked against its zod schema and the compiled serializer's rendering
    // (main/core/http/serializer.ts): a route answering off its schema fails its test.
    env: { HEADCOUNT_CHECK_RESPONSES: '1' },
    // In CI a JSON report is kept too, so .ci/run can print a plain "N passed, N failed" line.
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: 'test-results/vitest.json' },
    hookTimeout: 30_000,
    // The pinned agent CLIs the real-CLI tests drive live in a cache outside the repository.
    // Every temporary directory of the run goes under one root, removed when the run ends.
    globalSetup: ['test/setup/agent-clis.ts', 'test/setup/temp-root.ts'],
  },
});
