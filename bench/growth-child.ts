/**
 * Child process of the growth benchmark (run with --expose-gc), two modes:
 *
 * `fill <file> <n>`: fills a fresh SQLite state file with `n` idle conversations. One
 * template conversation goes through the real engine (one inbound message, like
 * bench/memory-rss-child.ts) on a store that records every write; then the net writes it
 * left (inbox dedup mark, contact keys, the conversation document, the send record) are
 * replayed through the `SqliteStore` API for every conversation, with its own ids. The
 * rows and their sizes are the engine's; only the engine's CPU per conversation is
 * skipped (1M conversations through the full engine take too long on 2 cores).
 *
 * `measure <file> <n> [messages] [rate]`: opens the state file, starts a bot on it
 * (SQLite store, the bench flow, an in-process API client that accepts every send, the
 * timer loop and sweeper on like `switchboard run`) and feeds it inbound messages at a
 * fixed rate, each to a conversation drawn at random among the `n` stored ones. Handling
 * latency = `bot.handle` called → the send answering that message ("got <text>") done.
 * Prints one JSON line: latency percentiles and every latency, RSS after GC, peak RSS, heap,
 * disk bytes read and CPU per timed message (all threads, and the event loop's own); with GROWTH_TRACE=1 also per-statement figures
 * (bench/growth-trace.ts).
 */
import { randomInt, randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import type { SendRequest } from '../src/messages/index.js';
import type { SendResult } from '../src/api/send-result.js';
import { createBot } from '../src/engine/create-bot.js';
import { resolveJournalOptions } from '../src/journal/journal.js';
import type { EngineClient, IngestEvent } from '../src/engine/types.js';
import { SqliteStore } from '../src/store/sqlite-store.js';
import type { AlongWrites, Store } from '../src/store/store.js';
import { benchFlow } from './bench-flow.js';
import { percentile } from './stats.js';
import { readBytes, threadCpuMs, traceStatements } from './growth-trace.js';

const [mode = 'measure', file = '', countArg = '1000', messagesArg = '3000', rateArg = '250'] =
  process.argv.slice(2);
const conversations = Number(countArg);
const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number): number => bytes / 2 ** 20;
const settledRss = (): NodeJS.MemoryUsage => {
  for (let i = 0; i < 3; i++) gc?.();
  return process.memoryUsage();
};

/** The journal as `switchboard run` keeps it (environment over the defaults: on). */
const journal = resolveJournalOptions(undefined, process.env);

const convId = (i: number): string => `conv_g_${i}`;
const phoneOf = (i: number): string => `+1556${String(i).padStart(7, '0')}`;

/** An in-process API client: accepts every send at once; `onSend` sees each request. */
function instantClient(onSend: (request: SendRequest) => void = () => undefined): EngineClient {
  let id = 0;
  return {
    send: (request): Promise<SendResult> => {
      onSend(request);
      return Promise.resolve({ status: 'accepted', messageId: `wamid_g_${++id}` });
    },
    listConversations: () => Promise.resolve({ items: [], nextCursor: null }),
    listMessages: () => Promise.resolve({ items: [], nextCursor: null }),
    getMessage: () => Promise.reject(new Error('not used')),
  };
}

function inbound(i: number, messageId: string, text: string): IngestEvent {
  return {
    kind: 'inbound',
    contact: { phone: phoneOf(i), id: `ct_g_${i}`, name: `Contact ${i}` },
    message: {
      id: messageId,
      conversationId: convId(i),
      type: 'text',
      text,
      occurredAt: new Date().toISOString(),
    },
  };
}

/** The write methods of a Store (reads are not replayed). */
const WRITES = new Set([
  'putConversation',
  'putConversationWith',
  'cancelTimer',
  'enqueue',
  'ackInbox',
  'ackAndRelease',
  'markSeen',
  'setValue',
  'putSend',
  'scheduleTimer',
]);

interface Call {
  readonly method: string;
  readonly args: unknown[];
}

/**
 * Runs the template conversation through the real engine on `store` and returns the net
 * writes it made: the last document and the last version of each send record (earlier
 * versions are overwritten anyway), the rest in order; leases are left out (a released
 * lease is swept a minute later).
 */
async function templateWrites(store: Store, index: number): Promise<Call[]> {
  const calls: Call[] = [];
  const recording = new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (WRITES.has(String(property)))
          calls.push({ method: String(property), args: structuredClone(args) });
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  const bot = createBot({
    flows: [benchFlow()],
    api: { client: instantClient() },
    store: recording,
    tickMs: 0,
    journal,
  });
  await bot.start();
  await bot.handle(inbound(index, `m_g_${index}`, 'hi'));
  await bot.idle();
  await bot.stop();
  const net: Call[] = [];
  for (const call of unfolded(calls)) {
    if (call.method === 'putConversation') {
      const at = net.findIndex((c) => c.method === 'putConversation');
      if (at >= 0) net.splice(at, 1);
      // Replayed as the first version of a new document.
      net.push({ method: call.method, args: [call.args[0], call.args[1], 0] });
    } else if (call.method === 'putSend') {
      const id = (call.args[0] as { id: string }).id;
      const at = net.findIndex(
        (c) => c.method === 'putSend' && (c.args[0] as { id: string }).id === id,
      );
      if (at >= 0) net.splice(at, 1);
      net.push(call);
    } else net.push(call);
  }
  return net;
}

/**
 * `putConversationWith` as the writes it stands for: its send records, values and timer
 * changes, then the document (`putConversation`), so that only the last document and the
 * last version of each record are kept and replayed.
 */
function unfolded(calls: readonly Call[]): Call[] {
  return calls.flatMap((call): Call[] => {
    if (call.method !== 'putConversationWith') return [call];
    const [id, value, version, , along] = call.args as [
      string,
      unknown,
      number,
      unknown,
      AlongWrites,
    ];
    return [
      ...(along.sends ?? []).map((record) => ({ method: 'putSend', args: [record] })),
      ...(along.values ?? []).map((v) => ({
        method: 'setValue',
        args: v.ttlMs === undefined ? [v.key, v.value] : [v.key, v.value, v.ttlMs],
      })),
      ...(along.timers ?? []).map((t) =>
        t.kind === 'schedule'
          ? { method: 'scheduleTimer', args: [t.timer] }
          : { method: 'cancelTimer', args: [t.id] },
      ),
      { method: 'putConversation', args: [id, value, version] },
    ];
  });
}

async function fill(): Promise<void> {
  const started = Date.now();
  // No prefetch thread: the replay calls enqueue and ackAndRelease in one turn without
  // waiting in between, which the engine never does (a warming enqueue would land last).
  const store = new SqliteStore({ path: file, prefetch: false });
  // The template is conversation `conversations` (one past the last): its ids are
  // replaced by each conversation's own.
  const t = conversations;
  const tokens = [convId(t), phoneOf(t), `ct_g_${t}`, `m_g_${t}`, `Contact ${t}`];
  // Writes naming none of the template's ids are the bot's own (e.g. its history line,
  // written at start): made once, not per conversation.
  const template = JSON.stringify(
    (await templateWrites(store, t)).filter((call) =>
      tokens.some((token) => JSON.stringify(call.args).includes(token)),
    ),
  );
  const pattern = new RegExp(tokens.map((s) => s.replace(/[+]/g, '\\+')).join('|'), 'g');
  const BATCH = 2_000;
  for (let from = 0; from < conversations; from += BATCH) {
    const writes: Promise<unknown>[] = [];
    for (let i = from; i < Math.min(conversations, from + BATCH); i++) {
      const own = [convId(i), phoneOf(i), `ct_g_${i}`, `m_g_${i}`, `Contact ${i}`];
      const calls = JSON.parse(
        template.replace(pattern, (token) => own[tokens.indexOf(token)] ?? token),
      ) as Call[];
      for (const { method, args } of calls) {
        const fn = (store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[
          method
        ];
        if (fn === undefined) throw new Error(`store has no ${method}`);
        writes.push(fn.apply(store, args));
      }
    }
    // One event-loop turn: the batch shares one transaction (group commit).
    await Promise.all(writes);
  }
  // Every item was acknowledged in the template: replayed, none may be left (a write
  // method missing from WRITES would leave one per conversation for the sweeper).
  const left = await store.conversationsWithInbox(1);
  if (left.length > 0)
    throw new Error(`the replayed writes left inbox items (${left[0] ?? ''}): see WRITES`);
  await store.close();
  const perConversation = JSON.parse(template) as Call[];
  process.stdout.write(
    `${JSON.stringify({
      mode: 'fill',
      conversations,
      fillSeconds: (Date.now() - started) / 1000,
      writesPerConversation: perConversation.length,
      writes: perConversation.map((c) =>
        c.method === 'setValue' ? `setValue ${String(c.args[0])}` : c.method,
      ),
      docBytes: Buffer.byteLength(
        JSON.stringify(perConversation.find((c) => c.method === 'putConversation')?.args[1]),
      ),
      fileMb: mb(statSync(file).size + walSize(file)),
    })}\n`,
  );
}

function walSize(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}

async function measure(): Promise<void> {
  const messages = Number(messagesArg);
  const rate = Number(rateArg);
  const warmup = Math.min(500, Math.ceil(messages / 5));
  const trace = process.env.GROWTH_TRACE === '1' ? traceStatements() : undefined;
  const prefetch = process.env.GROWTH_PREFETCH;
  const store = new SqliteStore({
    path: file,
    ...(prefetch === undefined ? {} : { prefetch: prefetch === '1' }),
  });
  const pending = new Map<string, number>();
  const latencies: number[] = [];
  let measuring = false;
  const client = instantClient((request) => {
    const body = 'text' in request ? request.text?.body : undefined;
    if (body === undefined || !body.startsWith('got ')) return;
    const started = pending.get(body.slice(4));
    if (started === undefined) return;
    pending.delete(body.slice(4));
    if (measuring) latencies.push(performance.now() - started);
  });
  const bot = createBot({ flows: [benchFlow()], api: { client }, store, tickMs: 250, journal });
  await bot.start();
  // Message ids differ from one measuring process to the next (rounds share the file,
  // and dedup would drop a repeated id).
  const run = randomUUID().slice(0, 8);
  const feed = async (count: number, tag: string): Promise<void> => {
    const interval = 1000 / rate;
    const begin = performance.now();
    const inFlight: Promise<unknown>[] = [];
    for (let n = 0; n < count; n++) {
      const due = begin + n * interval;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const text = `${tag} ${n}`;
      pending.set(text, performance.now());
      const i = randomInt(conversations);
      inFlight.push(bot.handle(inbound(i, `m_${run}_${tag}_${n}`, text)));
    }
    await Promise.all(inFlight);
    await bot.idle();
  };
  await feed(warmup, 'warm');
  // The WAL's size, sampled while the timed messages go through (it should stay bounded).
  let walPeak = walSize(file);
  const walSampler = setInterval(() => (walPeak = Math.max(walPeak, walSize(file))), 200);
  measuring = true;
  trace?.take();
  const readBefore = readBytes();
  const loopReadBefore = readBytes('thread-self');
  const cpuBefore = process.cpuUsage();
  const loopCpuBefore = threadCpuMs();
  const started = Date.now();
  await feed(messages, 'measured');
  const seconds = (Date.now() - started) / 1000;
  const diskReadBytes = readBytes() - readBefore;
  const loopReadBytes = readBytes('thread-self') - loopReadBefore;
  const cpu = process.cpuUsage(cpuBefore);
  const loopCpuMs = threadCpuMs() - loopCpuBefore;
  const statements = trace?.take();
  clearInterval(walSampler);
  walPeak = Math.max(walPeak, walSize(file));
  const memory = settledRss();
  const peak = process.resourceUsage().maxRSS * 1024;
  await bot.stop();
  await store.close();
  const sorted = [...latencies].sort((a, b) => a - b);
  process.stdout.write(
    `${JSON.stringify({
      mode: 'measure',
      conversations,
      messages: latencies.length,
      lost: messages - latencies.length,
      ratePerSec: messages / seconds,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.at(-1) ?? 0,
      rssMb: mb(memory.rss),
      peakRssMb: mb(peak),
      heapMb: mb(memory.heapUsed),
      walPeakMb: mb(walPeak),
      diskReadKbPerMessage: diskReadBytes / 1024 / messages,
      loopDiskReadKbPerMessage: loopReadBytes / 1024 / messages,
      cpuUsPerMessage: (cpu.user + cpu.system) / messages,
      loopCpuUsPerMessage: (loopCpuMs * 1000) / messages,
      ...(statements === undefined ? {} : { statements }),
      latenciesMs: latencies.map((l) => Math.round(l * 1000) / 1000),
    })}\n`,
  );
}

if (mode === 'fill') await fill();
else await measure();
