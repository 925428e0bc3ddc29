/**
 * Engine events/s in-process (bot.handle → dedup/enqueue → lease → load → machine →
 * persist → send adapter with an in-process client) against a raw XState loop doing
 * only restore → send → persist (JSON) for the same machine and the same events.
 */
import { createActor } from 'xstate';
import type { SendResult } from '../src/api/send-result.js';
import { createBot } from '../src/engine/create-bot.js';
import type { EngineClient, IngestEvent } from '../src/engine/types.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { benchFlow } from './bench-flow.js';
import { median } from './stats.js';

/** Figures of the in-process comparison (medians over the measured rounds). */
export interface EngineEventsFigures {
  readonly events: number;
  readonly conversations: number;
  readonly rounds: number;
  readonly engineEventsPerSec: number;
  /** The engine with its live-actor cache off (every event restores the snapshot). */
  readonly engineNoCacheEventsPerSec: number;
  readonly rawEventsPerSec: number;
  /** Median of the per-round ratios engine / raw (each pair measured back to back). */
  readonly ratio: number;
  /** Lowest and highest per-round ratio. */
  readonly ratioRange: readonly [number, number];
  readonly ratioNoCache: number;
}

function inbound(n: number, conversations: number, at: number): IngestEvent {
  const c = n % conversations;
  return {
    kind: 'inbound',
    contact: { phone: `+1555${String(2_000_000 + c)}`, id: `ct_${c}`, name: `Contact ${c}` },
    message: {
      id: `m_${n}`,
      conversationId: `conv_${c}`,
      type: 'text',
      text: `hello ${n}`,
      occurredAt: new Date(at + n).toISOString(),
    },
  };
}

/** An in-process client: every send is accepted at once (no HTTP, no budgets). */
function instantClient(): EngineClient {
  let id = 0;
  return {
    send: (): Promise<SendResult> =>
      Promise.resolve({ status: 'accepted', messageId: `wamid_${++id}` }),
    listConversations: () => Promise.resolve({ items: [], nextCursor: null }),
    listMessages: () => Promise.resolve({ items: [], nextCursor: null }),
    getMessage: () => Promise.reject(new Error('not used')),
  };
}

async function engineRun(
  events: number,
  conversations: number,
  actorCacheSize?: number,
): Promise<number> {
  const bot = createBot({
    flows: [benchFlow()],
    api: { client: instantClient() },
    store: new MemoryStore(),
    tickMs: 0,
    concurrency: 64,
    ...(actorCacheSize === undefined ? {} : { actorCacheSize }),
  });
  await bot.start();
  const at = Date.now();
  const start = process.hrtime.bigint();
  const batch = 1000;
  for (let i = 0; i < events; i += batch) {
    const handles: Promise<unknown>[] = [];
    for (let n = i; n < Math.min(events, i + batch); n++)
      handles.push(bot.handle(inbound(n, conversations, at)));
    await Promise.all(handles);
    await bot.idle();
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  await bot.stop();
  return events / seconds;
}

function rawRun(events: number, conversations: number): number {
  const { machine } = benchFlow();
  const stored = new Map<string, string>();
  const at = Date.now();
  const start = process.hrtime.bigint();
  for (let n = 0; n < events; n++) {
    const event = inbound(n, conversations, at);
    if (event.kind !== 'inbound') continue;
    const key = event.message.conversationId;
    const json = stored.get(key);
    const input = { conversationId: key, contact: event.contact };
    const actor =
      json === undefined
        ? createActor(machine, { input })
        : createActor(machine, { input, snapshot: JSON.parse(json) as never });
    actor.start();
    actor.send({ type: 'inbound.message', message: event.message });
    stored.set(key, JSON.stringify(actor.getPersistedSnapshot()));
    actor.stop();
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return events / seconds;
}

/**
 * Runs both loops: one warm-up of each (so both are JIT-compiled before anything is
 * timed), then `rounds` rounds of engine, raw, engine without the actor cache, back to
 * back. Each round's ratio compares runs made under the same machine load (this machine
 * is shared), and the median round is reported: a single pair swung between 30% and 55%.
 */
export async function engineEvents(
  events = 20_000,
  conversations = 1_000,
  rounds = 5,
): Promise<EngineEventsFigures> {
  rawRun(events / 2, conversations);
  await engineRun(events / 2, conversations);
  await engineRun(events / 4, conversations, 0);
  const engine: number[] = [];
  const raw: number[] = [];
  const noCache: number[] = [];
  for (let r = 0; r < rounds; r++) {
    engine.push(await engineRun(events, conversations));
    raw.push(rawRun(events, conversations));
    noCache.push(await engineRun(events, conversations, 0));
  }
  const ratios = engine.map((e, i) => e / (raw[i] ?? e));
  const ratiosNoCache = noCache.map((e, i) => e / (raw[i] ?? e));
  return {
    events,
    conversations,
    rounds,
    engineEventsPerSec: median(engine),
    engineNoCacheEventsPerSec: median(noCache),
    rawEventsPerSec: median(raw),
    ratio: median(ratios),
    ratioRange: [Math.min(...ratios), Math.max(...ratios)],
    ratioNoCache: median(ratiosNoCache),
  };
}
