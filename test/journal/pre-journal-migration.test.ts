import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createBot } from '../../src/engine/create-bot.js';
import type { Store } from '../../src/store/store.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import { readConversationView } from '../../src/journal/conversation-view.js';
import { SqliteStateReader } from '../../src/store/sqlite-reader.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { RedisStore } from '../../src/store/redis-store.js';
import { acceptingClient } from '../engine/accepting-client.js';
import { connectTestRedis, deleteByPrefix } from '../store/redis-test-helpers.js';

/**
 * Documents written by `main` before the journal (test/fixtures/journal/: a SQLite state
 * file and a Redis document hash, made by that code running the flow below through
 * "hi", "remind") open, read with an empty journal, and get one with their next write.
 */
const FIXTURES = join(import.meta.dirname, '../fixtures/journal');
const fixture = JSON.parse(readFileSync(join(FIXTURES, 'pre-journal-docs.json'), 'utf8')) as {
  conversationId: string;
  redisHash: Record<string, string>;
};
const flow = compileFlow(
  defineFlow({
    id: 'pre-journal',
    version: 1,
    start: 'welcome',
    states: {
      welcome: {
        say: 'Hi {{contact.name}}!',
        menu: {
          body: 'Pick one',
          options: [{ id: 'remind', title: 'Remind me', keywords: ['remind'], goto: 'waiting' }],
        },
      },
      waiting: {
        say: 'Later.',
        menu: { body: 'Or pick', options: [{ id: 'menu', title: 'Menu', goto: 'welcome' }] },
        timeout: { after: '25h', goto: 'welcome' },
      },
    },
  }),
);

async function continueConversation(store: Store): Promise<void> {
  const bot = createBot({ flows: [flow], api: { client: acceptingClient() }, store, tickMs: 0 });
  await bot.start();
  await bot.handle({
    kind: 'inbound',
    contact: { phone: '+15557770001', id: 'ct_ZIqhOgiJVPxc', name: '+15557770001' },
    message: {
      id: `msg_after_${randomUUID()}`,
      conversationId: fixture.conversationId,
      type: 'text',
      text: 'Menu',
      occurredAt: new Date().toISOString(),
    },
  });
  await bot.idle();
  await bot.stop();
}

describe('documents written before the journal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-prejournal-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should open a state file of main, read it with an empty journal, and journal the next turn', async () => {
    const path = join(dir, 'state.db');
    copyFileSync(join(FIXTURES, 'pre-journal-state.db'), path);
    const reader = new SqliteStateReader(path);
    const before = await readConversationView(reader, fixture.conversationId);
    await reader.close();
    expect(before).toMatchObject({ status: 'found', view: { state: 'waiting', journal: [] } });
    const store = new SqliteStore({ path });
    try {
      await continueConversation(store);
      const after = await readConversationView(store, fixture.conversationId);
      if (after.status !== 'found') throw new Error(after.status);
      expect(after.view.state).toBe('welcome');
      expect(after.view.journal.map((e) => e.kind)).toEqual(
        expect.arrayContaining(['inbound', 'transition', 'send']),
      );
      expect(after.view.journal.find((e) => e.kind === 'transition')).toMatchObject({
        from: 'waiting',
        to: 'welcome',
      });
    } finally {
      await store.close();
    }
  });

  it('should open a Redis document of main and journal the next turn', async () => {
    const redis = await connectTestRedis();
    const prefix = `sbtest:prejournal:${randomUUID()}:`;
    try {
      const hash = { ...fixture.redisHash, e: String(Date.now() + 86_400_000) };
      await redis.hset(`{${prefix}c:${fixture.conversationId}}:doc`, hash);
      const store = new RedisStore({ redis, prefix });
      const before = await readConversationView(store, fixture.conversationId);
      expect(before).toMatchObject({ status: 'found', view: { state: 'waiting', journal: [] } });
      await continueConversation(store);
      const after = await readConversationView(store, fixture.conversationId);
      if (after.status !== 'found') throw new Error(after.status);
      expect(after.view.state).toBe('welcome');
      expect(after.view.journal.some((e) => e.kind === 'inbound')).toBe(true);
    } finally {
      await deleteByPrefix(redis, prefix);
      await redis.quit();
    }
  });
});
