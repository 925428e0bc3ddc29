import { execFile } from 'node:child_process';
import { z } from 'zod';
import type { EngineEventsFigures } from './engine-events.js';
import { benchScript } from './child-script.js';

const Figures = z.object({
  events: z.number(),
  conversations: z.number(),
  rounds: z.number(),
  engineEventsPerSec: z.number(),
  engineNoCacheEventsPerSec: z.number(),
  rawEventsPerSec: z.number(),
  ratio: z.number(),
  ratioRange: z.tuple([z.number(), z.number()]),
  ratioNoCache: z.number(),
});

/**
 * Runs the engine vs raw XState comparison (bench/engine-events.ts) in a fresh process:
 * both loops run there, side by side, with nothing else in the heap.
 */
export function engineEventsFresh(
  events = 20_000,
  conversations = 1_000,
  rounds = 5,
): Promise<EngineEventsFigures> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        ...benchScript('engine-events-child'),
        String(events),
        String(conversations),
        String(rounds),
      ],
      { maxBuffer: 1 << 20 },
      (error, stdout) => {
        if (error !== null)
          return reject(new Error(`engine child failed: ${error.message}`, { cause: error }));
        const parsed = Figures.safeParse(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}'));
        if (parsed.success) resolve(parsed.data);
        else reject(new Error(`engine child printed ${stdout}`));
      },
    );
  });
}
