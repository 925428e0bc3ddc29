import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createBot } from '../../src/engine/create-bot.js';
import { toStoredDoc } from '../../src/engine/stored-doc.js';
import { parseStoredDoc } from '../../src/engine/stored-doc.js';
import type { Logger } from '../../src/log/logger.js';
import type { Store } from '../../src/store/store.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { readConversationView } from '../../src/journal/conversation-view.js';
import { SqliteStateReader } from '../../src/store/sqlite-reader.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { RedisStore } from '../../src/store/redis-store.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { summarizeConversation } from '../../src/journal/conversation-summary.js';
import { AttachSource } from '../../src/studio/attach/attach-source.js';
import { conversationDetail, inboxRow, stateTrail } from '../../src/studio/attach/attach-view.js';
import { acceptingClient } from '../engine/accepting-client.js';
import { connectTestRedis, deleteByPrefix } from '../store/redis-test-helpers.js';

/**
 * Documents written by `main` with the journal stored as entry objects (formats 2 and 4;
 * test/fixtures/journal/README.md: a SQLite state file and the Redis document hashes, made
 * by that code running the flow below) read the same entries as `main` read, and are
 * stored compact (format 6) by their next write.
 */
const FIXTURES = join(import.meta.dirname, '../fixtures/journal');
const fixture = JSON.parse(readFileSync(join(FIXTURES, 'object-journal-docs.json'), 'utf8')) as {
  conversationIds: [string, string];
  /** What `main`'s readConversationView showed of each journal (joinSends: false). */
  journals: Record<string, unknown[]>;
  sqliteDocs: Record<string, { value: unknown }>;
  redisHashes: Record<string, Record<string, string>>;
};
/** Ada's conversation ended after a handler; Grace's waits on a timer. */
const [ADA_CONV, GRACE_CONV] = fixture.conversationIds;
const GRACE = '+15557770012';

const flow = compileFlow(
  defineFlow({
    id: 'object-journal',
    version: 1,
    start: 'welcome',
    states: {
      welcome: {
        say: 'Hi {{contact.name}}!',
        menu: {
          body: 'Pick one',
          options: [
            { id: 'order', title: 'Order status', keywords: ['order'], goto: 'lookup' },
            { id: 'remind', title: 'Remind me', keywords: ['remind'], goto: 'waiting' },
          ],
        },
      },
      lookup: {
        call: {
          handler: 'lookup',
          outcomes: { found: 'found' },
          onError: 'welcome',
          timeout: '1s',
        },
      },
      found: { say: 'Your order is {{status}}.', final: true },
      waiting: {
        say: 'Later.',
        menu: { body: 'Or pick', options: [{ id: 'menu', title: 'Menu', goto: 'welcome' }] },
        timeout: { after: '25h', goto: 'welcome' },
      },
    },
  }),
);

async function say(store: Store, conversationId: string, text: string, logger?: Logger) {
  const bot = createBot({
    flows: [flow],
    handlers: { lookup: () => ({ outcome: 'found', vars: { status: 'shipped' } }) },
    api: { client: acceptingClient() },
    store,
    tickMs: 0,
    ...(logger === undefined ? {} : { logger }),
  });
  await bot.start();
  await bot.handle({
    kind: 'inbound',
    contact: { phone: GRACE, id: 'ct_grace', name: GRACE },
    message: {
      id: `msg_after_${randomUUID()}`,
      conversationId,
      type: 'text',
      text,
      occurredAt: new Date().toISOString(),
    },
  });
  await bot.idle();
  await bot.stop();
}

async function journalOf(store: Pick<Store, 'getConversation' | 'getSend'>, id: string) {
  const read = await readConversationView(store, id, { joinSends: false, now: 0 });
  if (read.status !== 'found') throw new Error(`${id}: ${read.status}`);
  return read.view;
}

/** The stored document's format and whether its journal is stored compact. */
async function storedForm(store: Store, id: string) {
  const value = (await store.getConversation(id))?.value as { v: number; journal: unknown[] };
  return { v: value.v, compact: value.journal.every((e) => Array.isArray(e)) };
}

describe('documents written with an object journal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-objjournal-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should read a state file of main with the same entries, and store them compact at the next write', async () => {
    const path = join(dir, 'state.db');
    copyFileSync(join(FIXTURES, 'object-journal-state.db'), path);
    const reader = new SqliteStateReader(path);
    for (const id of [ADA_CONV, GRACE_CONV]) {
      const view = await journalOf(reader, id);
      expect(view.journal).toEqual(fixture.journals[id]);
      expect(view.unreadableEntries).toBe(0);
    }
    await reader.close();
    const store = new SqliteStore({ path });
    try {
      expect(await storedForm(store, GRACE_CONV)).toEqual({ v: 4, compact: false });
      await say(store, GRACE_CONV, 'Menu');
      expect(await storedForm(store, GRACE_CONV)).toEqual({ v: 6, compact: true });
      const after = await journalOf(store, GRACE_CONV);
      const before = fixture.journals[GRACE_CONV] ?? [];
      expect(after.journal.slice(0, before.length)).toEqual(before);
      expect(after.journal.slice(before.length).map((e) => e.kind)).toEqual(
        expect.arrayContaining(['inbound', 'transition', 'send']),
      );
      expect(after.state).toBe('welcome');
      // The untouched conversation still reads as main wrote it.
      expect((await journalOf(store, ADA_CONV)).journal).toEqual(fixture.journals[ADA_CONV]);
    } finally {
      await store.close();
    }
  });

  it('should read Redis documents of main with the same entries, and store them compact at the next write', async () => {
    const redis = await connectTestRedis();
    const prefix = `sbtest:objjournal:${randomUUID()}:`;
    try {
      for (const id of [ADA_CONV, GRACE_CONV]) {
        const hash = { ...fixture.redisHashes[id], e: String(Date.now() + 86_400_000) };
        await redis.hset(`{${prefix}c:${id}}:doc`, hash);
      }
      const store = new RedisStore({ redis, prefix });
      for (const id of [ADA_CONV, GRACE_CONV]) {
        const view = await journalOf(store, id);
        // The Redis run had its own times and ids: the same kinds in the same order.
        expect(view.journal.map((e) => e.kind)).toEqual(
          (fixture.journals[id] as { kind: string }[]).map((e) => e.kind),
        );
      }
      const before = (await journalOf(store, GRACE_CONV)).journal;
      await say(store, GRACE_CONV, 'Menu');
      expect(await storedForm(store, GRACE_CONV)).toEqual({ v: 6, compact: true });
      const after = await journalOf(store, GRACE_CONV);
      expect(after.journal.slice(0, before.length)).toEqual(before);
      expect(after.journal.length).toBeGreaterThan(before.length);
    } finally {
      await deleteByPrefix(redis, prefix);
      await redis.quit();
    }
  });

  it('should show every reader the same in either form: inspect, conversations, the attached studio', async () => {
    const now = 1_795_900_000_000;
    /** What each reader makes of the documents in `store`. */
    async function readAll(store: MemoryStore) {
      const source = new AttachSource(store);
      const listed = (await source.snapshot()).conversations;
      return Promise.all(
        fixture.conversationIds.map(async (id) => {
          const inspected = await source.conversation(id, now);
          if (inspected.status !== 'found') throw new Error(inspected.status);
          const { version: _version, ...view } = inspected.view;
          const attached = listed.find((c) => c.id === id);
          if (attached?.status !== 'valid') throw new Error(id);
          const parsed = parseStoredDoc((await store.getConversation(id))?.value);
          if (parsed.status !== 'valid') throw new Error(parsed.error);
          return {
            view,
            summary: summarizeConversation(id, parsed.doc, now),
            row: inboxRow(attached, now),
            trail: stateTrail(attached),
            detail: conversationDetail(inspected.view, now),
          };
        }),
      );
    }
    const objects = new MemoryStore();
    const compact = new MemoryStore();
    for (const id of fixture.conversationIds) {
      const value = fixture.sqliteDocs[id]?.value;
      const parsed = parseStoredDoc(value);
      if (parsed.status !== 'valid') throw new Error(parsed.error);
      const rewritten = toStoredDoc(parsed.doc, false);
      expect(rewritten['v']).toBe(6);
      await objects.putConversation(id, value, 0);
      await compact.putConversation(id, rewritten, 0);
    }
    const before = await readAll(objects);
    expect(before.map((r) => r.view.journal.length)).toEqual([22, 10]);
    expect(await readAll(compact)).toEqual(before);
  });

  it('should answer a conversation whose stored journal has an entry that does not decode, warn naming it, and store the journal without it', async () => {
    const store = new MemoryStore();
    const id = 'conv_damaged';
    await say(store, id, 'hi');
    const current = await store.getConversation(id);
    const stored = current?.value as { v: number; journal: unknown[] };
    expect(stored.v).toBe(6);
    const damaged = { ...stored, journal: [...stored.journal] };
    damaged.journal[1] = [99, 0];
    const put = await store.putConversation(id, damaged, current?.version ?? 0);
    expect(put).toMatchObject({ status: 'ok' });
    const view = await journalOf(store, id);
    expect(view.unreadableEntries).toBe(1);
    expect(view.journal).toHaveLength(stored.journal.length - 1);
    const warnings: string[] = [];
    const logger: Logger = {
      error: () => undefined,
      warn: (message) => void warnings.push(message),
      info: () => undefined,
      debug: () => undefined,
      child: () => logger,
    };
    await say(store, id, 'remind', logger);
    expect(warnings).toEqual([
      `conversation ${id}: journal entry 1 [99,0]: kind code 99 is unknown; dropped from the journal`,
    ]);
    const after = await journalOf(store, id);
    expect(after.state).toBe('waiting');
    expect(after.unreadableEntries).toBe(0);
    expect(after.journal.slice(0, view.journal.length)).toEqual(view.journal);
    expect(after.journal.some((e) => e.kind === 'timer' && e.action === 'set')).toBe(true);
    // Written back whole: every entry decodes again.
    const rewritten = parseStoredDoc((await store.getConversation(id))?.value);
    expect(rewritten).not.toHaveProperty('journalErrors');
    expect(rewritten.status === 'valid' ? toStoredDoc(rewritten.doc, false)['v'] : 0).toBe(6);
  });
});
