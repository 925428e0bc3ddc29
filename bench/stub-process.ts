import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { benchScript } from './child-script.js';

const Ready = z.object({ url: z.string() });
const Sends = z.object({ sends: z.number(), connections: z.number() });

/** The stub Messaging API running in its own process (bench/stub-api-server.ts). */
export interface StubProcess {
  readonly url: string;
  /** Sends it accepted so far, and connections opened to it. */
  counts(): Promise<{ sends: number; connections: number }>;
  stop(): Promise<void>;
}

/**
 * Starts the stub API as its own process, like the real, remote API: the bot under test
 * does not carry the API server's work on its event loop. It exits when its stdin
 * closes (the parent died or stopped it). `script`: the bench script to run (default the
 * `http.Server` one; `'lean-stub-server'` is the lean, recording one).
 */
export async function startStubProcess(script = 'stub-api-server'): Promise<StubProcess> {
  const child = spawn(process.execPath, benchScript(script), {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`stub API exited with ${String(code)}`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  const { url } = Ready.parse(JSON.parse(line));
  return {
    url,
    counts: async () => Sends.parse(await (await fetch(`${url}/__sends`)).json()),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}
