/**
 * `tsx bench/profile.ts [bot-memory|bot-redis|bot-sqlite]`: runs one webhook target under
 * `node --cpu-prof`, drives it like the throughput benchmark (signed callbacks for 4 s,
 * then waits for the backlog to drain), stops it cleanly and prints where its CPU time
 * went (self time by package / src folder, and the top functions).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { summariseProfile, type ProfileSummary } from './cpu-profile-summary.js';
import { pipeline } from './webhook-throughput.js';
import { spawnTarget, type TargetMode } from './spawn-target.js';
import { startStubProcess } from './stub-process.js';

/** Profiles one target mode; returns the summary of its CPU profile. */
export async function profileTarget(
  mode: TargetMode,
): Promise<ProfileSummary & { readonly events: number; readonly cpuMicros: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-prof-'));
  const stub = await startStubProcess();
  try {
    const prefix = mode === 'bot-sqlite' ? join(dir, 'state.db') : `sb:bench:prof:${randomUUID()}:`;
    const file = process.env['KEEP_PROFILE'] ?? join(dir, 'target.cpuprofile');
    const target = await spawnTarget(mode, prefix, {
      env: { STUB_URL: stub.url, CPU_PROFILE: file },
    });
    const before = await target.stats();
    await pipeline([target], `prof${Date.now()}`);
    const { events, cpuMicros } = await target.stats();
    await target.finish();
    const counts = await stub.counts();
    process.stderr.write(`stub: ${counts.sends} sends over ${counts.connections} connections\n`);
    return { ...(await summariseProfile(file)), events, cpuMicros: cpuMicros - before.cpuMicros };
  } finally {
    await stub.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The summary as markdown lines. */
export function formatProfile(
  mode: string,
  s: ProfileSummary & { events: number; cpuMicros: number },
): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  return [
    `${mode}: ${(s.busyMs / 1000).toFixed(1)} s busy of ${(s.totalMs / 1000).toFixed(1)} s sampled, ${s.events} callbacks processed ; process CPU ${(s.cpuMicros / Math.max(1, s.events)).toFixed(0)} µs per callback (ack + engine + send)`,
    `- by place: ${s.groups.map((g) => `${g.name} ${pct(g.share)}`).join(', ')}`,
    `- top functions: ${s.functions
      .slice(0, 10)
      .map((f) => `\`${f.name}\` ${pct(f.share)}`)
      .join(', ')}`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const modes = (
    process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['bot-memory']
  ) as TargetMode[];
  for (const mode of modes)
    process.stdout.write(`${formatProfile(mode, await profileTarget(mode))}\n\n`);
}
