import { execFile } from 'node:child_process';
import { z } from 'zod';
import { benchScript } from './child-script.js';

const Figures = z.object({
  conversations: z.number(),
  stored: z.number(),
  fillSeconds: z.number(),
  rssBeforeMb: z.number(),
  rssAfterMb: z.number(),
  rssDeltaMb: z.number(),
  heapDeltaMb: z.number(),
  idleSeconds: z.number(),
  idleRssMb: z.number(),
  idleRssDeltaMb: z.number(),
  idleHeapDeltaMb: z.number(),
  avgDocBytes: z.number(),
  maxDocBytes: z.number(),
  avgSnapshotBytes: z.number(),
  journalOn: z.boolean(),
  avgJournalBytes: z.number(),
  avgJournalEntries: z.number(),
});
export type MemoryFigures = z.infer<typeof Figures>;

/** Runs bench/memory-rss-child.ts in a fresh process (with --expose-gc) and returns its figures. */
export function memoryRss(conversations = 100_000): Promise<MemoryFigures> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--expose-gc', ...benchScript('memory-rss-child'), String(conversations)],
      { maxBuffer: 1 << 20 },
      (error, stdout) => {
        if (error !== null)
          return reject(new Error(`memory child failed: ${error.message}`, { cause: error }));
        const parsed = Figures.safeParse(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}'));
        if (parsed.success) resolve(parsed.data);
        else reject(new Error(`memory child printed ${stdout}`));
      },
    );
  });
}
