import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSandbox } from '../../src/sandbox/index.js';
import { roundRobinProxy, spawnWorker, waitFor, type WorkerProcess } from './cluster.js';

/** What {@link trafficThroughFailover} counted. */
export interface FailoverCount {
  /** Inbound messages that expected one answer each. */
  readonly messages: number;
  /** Inbound messages never answered. */
  readonly lost: number;
  /** Inbound messages answered more than once. */
  readonly doubled: number;
  /** `/readyz` answers seen during the failover, by status. */
  readonly readyz: ReadonlyMap<number, number>;
  /** Wall time of the failover step, ms. */
  readonly failoverMs: number;
}

/** Options of {@link trafficThroughFailover}. */
export interface FailoverTraffic {
  /** REDIS_URL of the workers. */
  readonly redisUrl: string;
  /** Extra environment of the workers (e.g. REDIS_WAIT_REPLICAS). */
  readonly env?: Record<string, string>;
  /** The failover, run once a third of the traffic was answered. */
  readonly failover: () => Promise<void>;
  readonly conversations?: number;
  readonly messagesPerConversation?: number;
}

const SECRET = 'failover-test-callback-secret';

/**
 * Two `switchboard run` workers of the scale bot on `redisUrl`, behind a round-robin proxy
 * that the sandbox delivers every callback to (each twice), and conversations that each
 * send messages one after another (the next once the previous is answered). Once a third
 * of the answers went out, `failover` runs while traffic goes on; `/readyz` of a worker is
 * probed meanwhile. Then every inbound text must get its answer exactly once.
 */
export async function trafficThroughFailover(options: FailoverTraffic): Promise<FailoverCount> {
  const conversations = options.conversations ?? 12;
  const perConversation = options.messagesPerConversation ?? 6;
  const sandbox = createSandbox();
  const server = await sandbox.listen(0, '127.0.0.1');
  let workers: WorkerProcess[] = [];
  const proxy = await roundRobinProxy(() => workers.map((w) => w.url));
  const readyz = new Map<number, number>();
  try {
    const env = {
      MESSAGING_API_BASE_URL: server.url,
      MESSAGING_API_KEY: sandbox.config.keys[0]!.key,
      CALLBACK_SECRET: SECRET,
      REDIS_URL: options.redisUrl,
      REDIS_PREFIX: `sbtest:failover:${randomUUID()}:`,
      POLL_MS: '500',
      ...options.env,
    };
    // FAILOVER_DIAG_DIR: keep the workers' debug logs and name what was lost or doubled.
    const diag = process.env['FAILOVER_DIAG_DIR'];
    const diagEnv = diag === undefined ? {} : { LOG_LEVEL: 'debug' };
    workers = await Promise.all([
      spawnWorker({ ...env, ...diagEnv }),
      spawnWorker({ ...env, ...diagEnv }),
    ]);
    if (diag !== undefined) {
      mkdirSync(diag, { recursive: true });
      workers.forEach((w) => {
        const out = createWriteStream(join(diag, `worker-${w.worker}.log`));
        w.child.stdout?.pipe(out);
        w.child.stderr?.pipe(out);
      });
    }
    sandbox.control.setCallback({
      url: `${proxy.url}/callbacks`,
      secret: SECRET,
      duplicateRate: 1,
      retryBaseMs: 200,
      maxAttempts: 15,
    });
    const phone = (k: number): string => `+1555771${String(k).padStart(4, '0')}`;
    const answers = (k: number): string[] =>
      sandbox.control
        .sent()
        .filter((s) => s.to === phone(k))
        .map((s) => {
          const body: unknown = Reflect.get(Object(s.request['text']), 'body');
          return typeof body === 'string' ? body : '';
        });
    const total = conversations * perConversation;
    const answered = (): number =>
      sandbox.control.sent().filter((s) => {
        const body: unknown = Reflect.get(Object(s.request['text']), 'body');
        return typeof body === 'string' && body.startsWith('got ');
      }).length;
    const traffic = Promise.all(
      Array.from({ length: conversations }, async (_, k) => {
        sandbox.control.injectInbound({ type: 'text', from: phone(k), text: 'hello' });
        await waitFor(() => answers(k).includes('Say something.'), 60_000);
        for (let m = 1; m <= perConversation; m++) {
          const text = `m${m} c${k}`;
          sandbox.control.injectInbound({ type: 'text', from: phone(k), text });
          // Waits for the answer (or gives up: counted as lost below).
          await waitFor(() => answers(k).includes(`got ${text}`), 60_000);
        }
      }),
    );
    await waitFor(() => answered() >= total / 3, 60_000);
    let probing = true;
    let last = 0;
    const probe = (async () => {
      while (probing) {
        const status = await fetch(`${workers[0]!.url}/readyz`)
          .then((r) => r.status)
          .catch(() => 0);
        last = status;
        readyz.set(status, (readyz.get(status) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const started = Date.now();
    if (diag !== undefined) console.log(`failover starts at ${new Date(started).toISOString()}`);
    await options.failover();
    const failoverMs = Date.now() - started;
    // Until the worker says ready again (its view of the topology catches up).
    await waitFor(() => last === 200, 30_000);
    probing = false;
    await probe;
    await traffic;
    // Duplicated callbacks may still be in flight: let them land before counting.
    await sandbox.control.callbacksIdle();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    let lost = 0;
    let doubled = 0;
    for (let k = 0; k < conversations; k++) {
      const sent = answers(k);
      for (let m = 1; m <= perConversation; m++) {
        const n = sent.filter((t) => t === `got m${m} c${k}`).length;
        if (n === 0) lost++;
        if (n > 1) doubled++;
        if (diag !== undefined && n !== 1) {
          const times = sandbox.control
            .sent()
            .filter((x) => x.to === phone(k))
            .map((x) => `${x.acceptedAt} ${x.messageId} ${JSON.stringify(x.request['text'])}`);
          console.log(
            `${n === 0 ? 'LOST' : 'DOUBLED'} m${m} c${k} (${phone(k)}):\n  ${times.join('\n  ')}`,
          );
        }
      }
    }
    return { messages: total, lost, doubled, readyz, failoverMs };
  } finally {
    await Promise.all(workers.map((w) => w.kill9()));
    await proxy.close();
    await sandbox.close();
  }
}
