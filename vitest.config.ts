import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// `switchboard` and `switchboard/testing` resolve to the TypeScript sources in this
// repository (the "switchboard-source" export condition), never to a stale dist/.
const conditions = ['switchboard-source', ...defaultServerConditions];
// Vitest also hands the SSR conditions to Node (`--conditions`) for the packages it does not
// transform. Without `module` there: OpenTelemetry's packages export, under `module`, an
// ESM build whose imports lack file extensions, which Node cannot load.
const nodeConditions = conditions.filter((c) => c !== 'module');

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions: nodeConditions } },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts', 'templates/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
