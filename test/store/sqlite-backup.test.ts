import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '../../src/api/budgets.js';
import { createBot } from '../../src/engine/create-bot.js';
import type { IngestEvent } from '../../src/engine/types.js';
import {
  StateBackupError,
  backupStateFile,
  describeStateFile,
  restoreStateFile,
} from '../../src/store/sqlite-backup.js';
import { readStateIdentity, recordStateIdentity } from '../../src/store/sqlite-identity.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { runCli } from '../cli/cli-process.js';
import { acceptingClient, sentTexts } from '../engine/accepting-client.js';
import { echoFlow } from '../engine/echo-machine.js';
import { waitUntil } from '../wait-until.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-backup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = 'test-api-key-of-this-bot';
const KEY_ID = keyIdOf(KEY);

function inbound(conversationId: string, id: string, text: string): IngestEvent {
  return {
    kind: 'inbound',
    message: { id, conversationId, type: 'text', text, occurredAt: new Date().toISOString() },
    contact: {
      phone: `+1555${conversationId.replace(/\D/g, '').padStart(7, '0')}`,
      id: conversationId,
      name: 'C',
    },
  };
}

/** Ids of the conversation documents in a state file (a reader of its own). */
function conversationIds(path: string): Set<string> {
  const db = new Database(path);
  try {
    return new Set(
      (db.prepare('SELECT id FROM conversations').raw().all() as [string][]).map((r) => r[0]),
    );
  } finally {
    db.close();
  }
}

/** A state file with `count` answered conversations, closed, with this bot's identity. */
async function stateWith(path: string, count: number, label?: string): Promise<void> {
  const store = new SqliteStore({ path });
  recordStateIdentity(store.database, { keyId: KEY_ID, label });
  const bot = createBot({
    flows: [echoFlow],
    api: { client: acceptingClient() },
    store,
    tickMs: 0,
  });
  await bot.start();
  for (let i = 0; i < count; i++) await bot.handle(inbound(`c${i}`, `seed${i}`, 'hello'));
  await bot.idle();
  await bot.stop();
  await store.close();
}

describe('backup and restore of the SQLite state file', () => {
  it('should take a consistent backup while the bot writes, which restores, opens and runs', async () => {
    const path = join(dir, 'live.db');
    const store = new SqliteStore({ path });
    recordStateIdentity(store.database, { keyId: KEY_ID, label: 'ops-test' });
    const client = acceptingClient();
    const bot = createBot({ flows: [echoFlow], api: { client }, store, tickMs: 0 });
    await bot.start();
    let handled = 0;
    let writing = true;
    const load = (async () => {
      while (writing && handled < 20_000) {
        const i = handled++;
        await bot.handle(inbound(`c${i % 150}`, `m${i}`, `text ${i}`));
        if (i % 10 === 0) await bot.idle();
      }
    })();
    try {
      expect(await waitUntil(() => handled > 300, 20_000)).toBe(true);
      await bot.idle();
      const before = conversationIds(path);
      const handledBefore = handled;
      const backup = join(dir, 'live-backup.db');
      // Another process, as an operator runs it, while this one keeps writing.
      const run = await runCli(['backup', backup, '--state', path], { deadlineMs: 60_000 });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(
        /^backed up .* to .*: \d+ conversations, \d+ bytes \(k_[0-9a-f]{16}, label "ops-test"\)\n$/,
      );
      expect(handled, 'the bot kept writing during the backup').toBeGreaterThan(handledBefore);
      writing = false;
      await load;
      await bot.idle();

      const facts = describeStateFile(backup);
      expect(facts.identity).toEqual({ keyId: KEY_ID, label: 'ops-test' });
      const inBackup = conversationIds(backup);
      for (const id of before) expect(inBackup.has(id), `conversation ${id}`).toBe(true);

      const restoredPath = join(dir, 'restored.db');
      const restored = restoreStateFile(backup, restoredPath, { keyId: KEY_ID, label: 'ops-test' });
      expect(restored.previous).toBeUndefined();
      expect(conversationIds(restoredPath)).toEqual(inBackup);
      // The restored file opens (no holder left from the live process) and a bot runs on it.
      const again = new SqliteStore({ path: restoredPath });
      const client2 = acceptingClient();
      const bot2 = createBot({
        flows: [echoFlow],
        api: { client: client2 },
        store: again,
        tickMs: 0,
      });
      try {
        await bot2.start();
        const doc = await again.getConversation('c1');
        expect(doc?.version).toBeGreaterThan(0);
        await bot2.handle(inbound('c1', 'after-restore', 'still here'));
        await bot2.idle();
        // Items that waited in the inboxes at the backup are answered too: none was lost.
        const texts = sentTexts(client2);
        expect(texts.filter((t) => t === 'echo: still here')).toHaveLength(1);
        for (const text of texts.filter((t) => t !== 'echo: still here'))
          expect(text).toMatch(/^echo: text \d+$/);
        expect((await again.getConversation('c1'))?.version).toBeGreaterThan(doc?.version ?? 0);
      } finally {
        await bot2.stop();
        await again.close();
      }
    } finally {
      writing = false;
      await load;
      await bot.stop();
      await store.close();
    }
  });

  it('should release in the restored file the leases the source process held', async () => {
    const source = join(dir, 'leased.db');
    await stateWith(source, 2, 'leases');
    // A live process holds a conversation and a named lease when the backup is taken.
    const live = new SqliteStore({ path: source });
    const now = Date.now();
    const held = await live.acquireLease('conv:c0', 'worker-live', 60_000, now);
    expect(held).toBeDefined();
    await live.acquireLease('poll-leader', 'worker-live', 60_000, now);
    const backup = join(dir, 'leased-backup.db');
    backupStateFile(source, backup);
    await live.close();
    const target = join(dir, 'leased-restored.db');
    restoreStateFile(backup, target, { keyId: KEY_ID, label: 'leases' });
    const again = new SqliteStore({ path: target });
    try {
      // Another owner takes both at once, and the conversation's token still grows.
      const taken = await again.acquireLease('conv:c0', 'worker-new', 60_000, now + 1);
      expect(taken?.token).toBeGreaterThan(held?.token ?? Infinity);
      expect(await again.acquireLease('poll-leader', 'worker-new', 60_000, now + 1)).toBeDefined();
    } finally {
      await again.close();
    }
  });

  it('should refuse a backup of another key or label, and restore it with force', async () => {
    const source = join(dir, 'other.db');
    await stateWith(source, 3, 'blue');
    const backup = join(dir, 'other-backup.db');
    backupStateFile(source, backup);
    const target = join(dir, 'target.db');
    await stateWith(target, 1, 'blue');

    expect(() => restoreStateFile(backup, target, { keyId: keyIdOf('another key') })).toThrow(
      new RegExp(`belongs to key id ${KEY_ID} \\(label "blue"\\), not to this bot's key id k_`),
    );
    expect(() => restoreStateFile(backup, target, { keyId: KEY_ID, label: 'green' })).toThrow(
      /has label "blue", this bot's is "green"; pass --force/,
    );
    expect(() => restoreStateFile(backup, target, {})).toThrow(/set MESSAGING_API_KEY/);
    expect(conversationIds(target).size).toBe(1);

    const result = restoreStateFile(
      backup,
      target,
      { keyId: keyIdOf('another key') },
      {
        force: true,
        now: new Date('2026-03-02T09:00:00Z'),
      },
    );
    expect(result.previous).toBe(`${target}.before-restore-2026-03-02T09-00-00-000Z`);
    expect(existsSync(result.previous!)).toBe(true);
    expect(conversationIds(target).size).toBe(3);
  });

  it('should refuse to replace a state file that a running bot holds, and to overwrite a backup', async () => {
    const source = join(dir, 'held-source.db');
    await stateWith(source, 2);
    const backup = join(dir, 'held-backup.db');
    backupStateFile(source, backup);
    expect(() => backupStateFile(source, backup)).toThrow(
      /exists; choose another file or pass --force/,
    );
    expect(backupStateFile(source, backup, { force: true }).conversations).toBe(2);

    const held = join(dir, 'held.db');
    const store = new SqliteStore({ path: held });
    try {
      expect(() => restoreStateFile(backup, held, { keyId: KEY_ID }, { force: true })).toThrow(
        StateBackupError,
      );
      expect(() => restoreStateFile(backup, held, { keyId: KEY_ID }, { force: true })).toThrow(
        /is in use: stop the bot before restoring/,
      );
    } finally {
      await store.close();
    }
  });

  it('should refuse a file that is not a state file, and a backup without a key id unless forced', async () => {
    const notState = join(dir, 'not-state.db');
    const db = new Database(notState);
    db.exec('CREATE TABLE t (x)');
    db.close();
    expect(() => backupStateFile(notState, join(dir, 'x.db'))).toThrow(
      /is not a switchboard state file/,
    );
    expect(() => backupStateFile(join(dir, 'missing.db'), join(dir, 'y.db'))).toThrow(
      /no such file/,
    );

    const old = join(dir, 'old.db');
    const store = new SqliteStore({ path: old });
    await store.close();
    expect(readStateIdentity(new Database(old))).toEqual({});
    expect(() => restoreStateFile(old, join(dir, 'fresh.db'), { keyId: KEY_ID })).toThrow(
      /records no key id/,
    );
    expect(
      restoreStateFile(old, join(dir, 'fresh.db'), { keyId: KEY_ID }, { force: true }).previous,
    ).toBeUndefined();
  });

  it('should exit 2 with one line from `switchboard restore` for another key', async () => {
    const source = join(dir, 'cli-source.db');
    await stateWith(source, 2);
    const backup = join(dir, 'cli-backup.db');
    backupStateFile(source, backup);
    const target = join(dir, 'cli-target.db');
    const refused = await runCli(['restore', backup, '--state', target], {
      env: { MESSAGING_API_KEY: 'a different key' },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^switchboard restore: .* belongs to key id k_[0-9a-f]{16}, not to this bot's key id k_[0-9a-f]{16}; .*--force.*\n$/,
    );
    expect(refused.stderr).not.toContain('a different key');
    expect(existsSync(target)).toBe(false);
  });
});
