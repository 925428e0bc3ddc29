#!/usr/bin/env node
// The `switchboard` command. An installed package runs its compiled JavaScript (dist/);
// a checkout of the repository (src/ beside this file) runs its TypeScript sources through
// tsx, so `npm start` and the tests always run the code as it is, with no stale build.
// Set SWITCHBOARD_DIST=1 to run dist/ in a checkout (after `npm run build`).
import { existsSync } from 'node:fs';

const source = new URL('../src/cli/main.ts', import.meta.url);
if (existsSync(source) && process.env.SWITCHBOARD_DIST !== '1') {
  const { registerSourceConditions } = await import('./source-conditions.js');
  registerSourceConditions();
  await import(source.href);
} else {
  await import('../dist/cli/main.js');
}
