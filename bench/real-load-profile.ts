/**
 * One real-load run with the bot under `node --cpu-prof`, then the profile's summary:
 * `node .bench-build/bench/real-load-profile.js [store] [window s] [rate/s]` after
 * `tsc -p bench/tsconfig.json` (and `npm run build`: the bot runs dist/).
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { summariseProfile } from './cpu-profile-summary.js';
import { realLoad } from './real-load.js';

const [store = 'sqlite', windowSec = '30', rate = '4.5'] = process.argv.slice(2);
const dir = `/tmp/sb-real-profile-${Date.now()}`;
mkdirSync(dir, { recursive: true });
const figures = await realLoad({
  store: store as 'sqlite' | 'redis' | 'memory',
  warmupSec: 10,
  windowSec: Number(windowSec),
  ratePerSec: Number(rate),
  returningShare: 0.4,
  statusPerSec: 40,
  statusSec: 5,
  botNodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
});
const { replies, ...rest } = figures;
process.stdout.write(`${JSON.stringify({ ...rest, replies }, null, 1)}\n`);
for (const file of readdirSync(dir)) {
  const s = await summariseProfile(join(dir, file), 40);
  process.stdout.write(`\n${file}: busy ${s.busyMs.toFixed(0)} of ${s.totalMs.toFixed(0)} ms\n`);
  for (const g of s.groups) process.stdout.write(`  ${(g.share * 100).toFixed(1)}% ${g.name}\n`);
  process.stdout.write('functions:\n');
  for (const g of s.functions) process.stdout.write(`  ${(g.share * 100).toFixed(1)}% ${g.name}\n`);
}
