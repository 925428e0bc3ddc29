/**
 * Growth: a bot on a SQLite state file of 1,000 and of 1,000,000 conversations. Each
 * file is filled by bench/growth-child.ts (`fill`, its own process), then served by a
 * fresh process (`measure`, --expose-gc) that feeds messages through the real engine at a
 * fixed rate. The two sizes are measured in alternating rounds (1k, 1M, 1k, 1M, …) so
 * that the load of this shared machine weighs on both alike; p99 is the median of the
 * rounds' p99s, p50 and max are pooled. The state files live in a temporary folder, removed at the end.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { median, percentile } from './stats.js';
import { benchScript } from './child-script.js';

const FillFigures = z.object({
  conversations: z.number(),
  fillSeconds: z.number(),
  writesPerConversation: z.number(),
  writes: z.array(z.string()),
  docBytes: z.number(),
  fileMb: z.number(),
});
const MeasureFigures = z.object({
  conversations: z.number(),
  messages: z.number(),
  lost: z.number(),
  ratePerSec: z.number(),
  p50Ms: z.number(),
  p99Ms: z.number(),
  maxMs: z.number(),
  rssMb: z.number(),
  peakRssMb: z.number(),
  heapMb: z.number(),
  walPeakMb: z.number(),
  diskReadKbPerMessage: z.number(),
  loopDiskReadKbPerMessage: z.number(),
  latenciesMs: z.array(z.number()),
});
type MeasureFigures = z.infer<typeof MeasureFigures>;

/** Handling latency and memory of the bot at one size, pooled over its rounds. */
export interface GrowthSize {
  readonly conversations: number;
  readonly fill: z.infer<typeof FillFigures>;
  readonly rounds: number;
  readonly messages: number;
  readonly lost: number;
  /** Pooled over the rounds. */
  readonly p50Ms: number;
  /** Median of the rounds' p99s (a round disturbed by other work on the machine weighs less). */
  readonly p99Ms: number;
  /** Each round's p99. */
  readonly roundP99Ms: readonly number[];
  readonly maxMs: number;
  /** Highest RSS after GC at the end of a round. */
  readonly rssMb: number;
  /** Highest peak RSS of a serving process. */
  readonly peakRssMb: number;
  /** Largest WAL file seen while timed messages went through (sampled every 200 ms). */
  readonly walPeakMb: number;
  /** KiB the serving process read from disk per timed message (page-cache misses), mean of the rounds. */
  readonly diskReadKbPerMessage: number;
  /** The same, read by the event loop's thread itself (it waits for each read). */
  readonly loopDiskReadKbPerMessage: number;
  readonly ratePerSec: number;
}

/** Figures of the growth benchmark. */
export interface GrowthFigures {
  readonly small: GrowthSize;
  readonly large: GrowthSize;
  /** Median p99 at the large size / median p99 at the small size. */
  readonly p99Ratio: number;
  readonly seconds: number;
}

function child<T>(schema: z.ZodType<T>, args: readonly string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--expose-gc', ...benchScript('growth-child'), ...args],
      { maxBuffer: 16 << 20 },
      (error, stdout) => {
        if (error !== null)
          return reject(new Error(`growth child ${args[0]} failed: ${error.message}`));
        const parsed = schema.safeParse(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}'));
        if (parsed.success) resolve(parsed.data);
        else reject(new Error(`growth child printed ${stdout.slice(0, 500)}`));
      },
    );
  });
}

function pooled(
  conversations: number,
  fill: z.infer<typeof FillFigures>,
  rounds: readonly MeasureFigures[],
): GrowthSize {
  const all = rounds.flatMap((r) => r.latenciesMs).sort((a, b) => a - b);
  return {
    conversations,
    fill,
    rounds: rounds.length,
    messages: all.length,
    lost: rounds.reduce((s, r) => s + r.lost, 0),
    p50Ms: percentile(all, 50),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    roundP99Ms: rounds.map((r) => r.p99Ms),
    maxMs: all.at(-1) ?? 0,
    rssMb: Math.max(...rounds.map((r) => r.rssMb)),
    peakRssMb: Math.max(...rounds.map((r) => r.peakRssMb)),
    walPeakMb: Math.max(...rounds.map((r) => r.walPeakMb)),
    diskReadKbPerMessage: rounds.reduce((s, r) => s + r.diskReadKbPerMessage, 0) / rounds.length,
    loopDiskReadKbPerMessage:
      rounds.reduce((s, r) => s + r.loopDiskReadKbPerMessage, 0) / rounds.length,
    ratePerSec: rounds.reduce((s, r) => s + r.ratePerSec, 0) / rounds.length,
  };
}

/**
 * Fills both files, then `rounds` alternating rounds of `messages` messages at `rate`
 * per second on each.
 */
export async function growth(
  small = 1_000,
  large = 1_000_000,
  rounds = 3,
  messages = 2_000,
  rate = 250,
): Promise<GrowthFigures> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'sb-growth-'));
  try {
    const smallFile = join(dir, 'small.db');
    const largeFile = join(dir, 'large.db');
    const smallFill = await child(FillFigures, ['fill', smallFile, String(small)]);
    const largeFill = await child(FillFigures, ['fill', largeFile, String(large)]);
    process.stderr.write(
      `  filled ${large.toLocaleString('en-US')} conversations in ${largeFill.fillSeconds.toFixed(1)} s (${largeFill.fileMb.toFixed(0)} MB)\n`,
    );
    const smallRounds: MeasureFigures[] = [];
    const largeRounds: MeasureFigures[] = [];
    const args = (file: string, n: number): string[] => [
      'measure',
      file,
      String(n),
      String(messages),
      String(rate),
    ];
    for (let r = 0; r < rounds; r++) {
      smallRounds.push(await child(MeasureFigures, args(smallFile, small)));
      largeRounds.push(await child(MeasureFigures, args(largeFile, large)));
    }
    const s = pooled(small, smallFill, smallRounds);
    const l = pooled(large, largeFill, largeRounds);
    return {
      small: s,
      large: l,
      p99Ratio: l.p99Ms / s.p99Ms,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
