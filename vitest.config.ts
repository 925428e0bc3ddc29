import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// `switchboard` and `switchboard/testing` resolve to the TypeScript sources in this
// repository (the "switchboard-source" export condition), never to a stale dist/.
const conditions = ['switchboard-source', ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts', 'templates/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
