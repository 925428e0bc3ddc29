import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  mkdtempSync,
  openSync,
  readSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { StateFileLockedError } from '../../src/store/sqlite-schema.js';
import {
  CHECKPOINT_EVERY_MS,
  QUIET_CHECKPOINT_MS,
  startCheckpointer,
} from '../../src/store/sqlite-checkpointer.js';
import {
  CHECKPOINTER_AFTER_WRITES,
  LAZY_WITHIN_MS,
  SqliteStore,
} from '../../src/store/sqlite-store.js';
import { storeContractSuite } from './store-contract.js';
import { waitUntil } from '../wait-until.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-sqlite-'));
let files = 0;
const nextPath = (): string => join(dir, `state-${++files}.db`);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Another process opens the file, runs `begin` (a transaction that takes a lock or a
 * snapshot), holds it `ms` and commits; resolves once the lock is held (told on stdout).
 */
async function holdInChild(path: string, begin: string, ms: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const Database = require('libsql');
       const db = new Database(${JSON.stringify(path)});
       ${begin}; console.log('held');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms});
       db.exec('COMMIT'); db.close();`,
    ],
    { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  expect(chunk.toString()).toContain('held');
  return child;
}

storeContractSuite('SqliteStore', () => {
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
  const store = new SqliteStore({ path: nextPath(), clock });
  return Promise.resolve({ store, clock, cleanup: () => store.close() });
});

describe('SqliteStore', () => {
  it('should keep everything across a close and a reopen of the file', async () => {
    const path = nextPath();
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const first = new SqliteStore({ path, clock });
    await first.putConversation('c1', { state: 'menu' }, 0);
    await first.enqueue('c1', { id: 'msg:1', sortKey: 1, payload: { n: 1 } }, 86_400_000);
    await first.setValue('cutoff', 123);
    await first.scheduleTimer({ id: 'c1:t', conversationId: 'c1', name: 't', dueAt: 5 });
    await first.close();
    const second = new SqliteStore({ path, clock });
    expect(await second.getConversation('c1')).toEqual({ value: { state: 'menu' }, version: 1 });
    expect(await second.peekInbox('c1', 5)).toEqual([
      { id: 'msg:1', sortKey: 1, payload: { n: 1 } },
    ]);
    expect(await second.enqueue('c1', { id: 'msg:1', sortKey: 1, payload: 1 }, 1000)).toBe(false);
    expect(await second.getValue('cutoff')).toBe(123);
    expect(await second.nextTimerDue()).toBe(5);
    await second.close();
  });

  it('should refuse a second process on the same file with a line that points to Redis', async () => {
    const path = nextPath();
    const store = new SqliteStore({ path });
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import { SqliteStore } from './src/store/sqlite-store.ts';
         try { new SqliteStore({ path: ${JSON.stringify(path)} }); console.log('opened'); }
         catch (e) { console.log(e.name + ': ' + e.message); }`,
      ],
      { encoding: 'utf8', cwd: process.cwd() },
    );
    expect(child.stdout).toContain('StateFileLockedError');
    expect(child.stdout).toContain('REDIS_URL');
    await store.close();
    // Released with the connection: the file opens again.
    const again = new SqliteStore({ path });
    await again.close();
  });

  it('should open at once a file whose holder was killed with -9', async () => {
    const path = nextPath();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import { SqliteStore } from './src/store/sqlite-store.ts';
         new SqliteStore({ path: ${JSON.stringify(path)} }); console.log('open');
         setInterval(() => {}, 1000);`,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
    expect(chunk.toString()).toContain('open');
    expect(() => new SqliteStore({ path })).toThrow(StateFileLockedError);
    child.kill('SIGKILL');
    await once(child, 'exit');
    const store = new SqliteStore({ path });
    await store.close();
  });

  it('should throw StateFileLockedError in the same process too', async () => {
    const path = nextPath();
    const store = new SqliteStore({ path });
    expect(() => new SqliteStore({ path })).toThrow(StateFileLockedError);
    await store.close();
  });

  it('should sweep expired rows so the file does not grow', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    const store = new SqliteStore({
      path: nextPath(),
      clock,
      retention: { sendRecordsMs: 1000, idleConversationMs: 1000 },
    });
    for (let i = 0; i < 1500; i++) {
      await store.putConversation(`c${i}`, { i }, 0);
      await store.putSend({
        id: `c${i}:1:1`,
        conversationId: `c${i}`,
        seq: 1,
        state: 'accepted',
        startedAt: 0,
        contentType: 'text',
        fingerprint: 'f',
      });
    }
    clock.advance(2000);
    for (let i = 0; i < 1000; i++) await store.markSeen(`k${i}`, 10);
    const count = (table: string): number =>
      Number((store.database.prepare(`SELECT COUNT(*) FROM ${table}`).raw().get() as [number])[0]);
    expect(count('conversations')).toBe(0);
    expect(count('sends')).toBe(0);
    await store.close();
  });

  it('should commit the writes of one turn together and settle them only after the commit', async () => {
    const path = nextPath();
    const store = new SqliteStore({ path });
    const committed = (): number => {
      // A second connection sees only what is committed.
      const reader = new Database(path, { readonly: true });
      try {
        return Number(
          (reader.prepare('SELECT COUNT(*) FROM conversations').raw().get() as [number])[0],
        );
      } finally {
        reader.close();
      }
    };
    let settled = 0;
    const writes = [0, 1, 2].map((i) =>
      store.putConversation(`c${i}`, { i }, 0).then(() => void settled++),
    );
    expect(store.database.inTransaction).toBe(true);
    expect(committed()).toBe(0);
    await Promise.resolve();
    expect(settled).toBe(0);
    await Promise.all(writes);
    expect(store.database.inTransaction).toBe(false);
    expect(committed()).toBe(3);
    await store.close();
  });

  it('should answer a lease taken or an item acknowledged at once and commit it with the next write', async () => {
    const path = nextPath();
    const store = new SqliteStore({ path });
    const committed = (sql: string): number => {
      const reader = new Database(path, { readonly: true });
      try {
        return Number((reader.prepare(sql).raw().get() as [number])[0]);
      } finally {
        reader.close();
      }
    };
    const item = { id: 'i1', sortKey: 1, payload: { n: 1 } };
    expect(await store.enqueue('c1', item, 60_000)).toBe(true);
    const taken = await store.acquireConversation('c1', 'w1', 10_000, Date.now());
    expect(taken?.first?.id).toBe('i1');
    // Answered, not committed: a second connection sees no lease yet.
    expect(committed("SELECT COUNT(*) FROM leases WHERE owner = 'w1'")).toBe(0);
    await store.putConversation('c1', { n: 1 }, 0, taken?.lease.token);
    expect(committed("SELECT COUNT(*) FROM leases WHERE owner = 'w1'")).toBe(1);
    expect(await store.ackAndRelease('c1', ['i1'], 'w1')).toBe(0);
    expect(committed('SELECT COUNT(*) FROM inbox')).toBe(1);
    // Nothing else written: it commits alone within LAZY_WITHIN_MS.
    await waitUntil(() => committed('SELECT COUNT(*) FROM inbox') === 0, LAZY_WITHIN_MS + 1_000);
    expect(committed("SELECT COUNT(*) FROM leases WHERE owner = ''")).toBe(1);
    expect(store.database.inTransaction).toBe(false);
    await store.close();
  });

  it('should reject only the write that failed and keep the others of its turn', async () => {
    const store = new SqliteStore({ path: nextPath() });
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    const [a, bad, b] = await Promise.allSettled([
      store.putConversation('a', { n: 1 }, 0),
      store.setValue('bad', circular),
      store.putConversation('b', { n: 2 }, 0),
    ]);
    expect(a.status).toBe('fulfilled');
    expect(bad.status).toBe('rejected');
    expect(b.status).toBe('fulfilled');
    expect(await store.getConversation('a')).toEqual({ value: { n: 1 }, version: 1 });
    expect(await store.getConversation('b')).toEqual({ value: { n: 2 }, version: 1 });
    expect(await store.getValue('bad')).toBeUndefined();
    await store.close();
  });

  it('should commit an open group on close and refuse writes after it', async () => {
    const path = nextPath();
    const store = new SqliteStore({ path });
    const write = store.setValue('last', 'words');
    await store.close();
    await write;
    await expect(store.setValue('later', 1)).rejects.toThrow('The SQLite store is closed');
    const reopened = new SqliteStore({ path });
    expect(await reopened.getValue('last')).toBe('words');
    await reopened.close();
  });

  it('should checkpoint the WAL on a worker thread once the file is busy, and not before', async () => {
    const fill = async (
      backgroundCheckpoints: boolean,
    ): Promise<{ grew: boolean; auto: number }> => {
      const path = nextPath();
      const store = new SqliteStore({ path, backgroundCheckpoints });
      const before = statSync(path).size;
      for (let i = 0; i < CHECKPOINTER_AFTER_WRITES + 100; i++)
        await store.setValue(`k${i}`, 'x'.repeat(200));
      // Only a checkpoint moves pages from the WAL into the file (under 1,000 WAL pages).
      // Waited for until it happens; without the thread, for three checkpoint periods.
      const grew = await waitUntil(
        () => statSync(path).size > before,
        backgroundCheckpoints ? 10_000 : 3 * CHECKPOINT_EVERY_MS,
      );
      const auto = Number(
        (store.database.prepare('PRAGMA wal_autocheckpoint').raw().get() as [number])[0],
      );
      await store.close();
      return { grew, auto };
    };
    expect(await fill(true)).toEqual({ grew: true, auto: 0 });
    expect(await fill(false)).toEqual({ grew: false, auto: 1000 });
  });

  it('should wait for the writer lock held by another connection, even in a write that reads first', async () => {
    const path = nextPath();
    const store = new SqliteStore({ path });
    await store.putConversation('c1', { n: 1 }, 0);
    // Another connection holds the writer lock for a second. putConversation reads the
    // document before it writes: in a deferred transaction that read would make the write
    // fail at once with SQLITE_BUSY.
    const child = await holdInChild(path, "db.exec('BEGIN IMMEDIATE')", 1000);
    const started = Date.now();
    expect(await store.putConversation('c1', { n: 2 }, 1)).toEqual({ status: 'ok', version: 2 });
    expect(Date.now() - started).toBeGreaterThan(100);
    await once(child, 'exit');
    expect(await store.getConversation('c1')).toEqual({ value: { n: 2 }, version: 2 });
    await store.close();
  });

  it('should start the WAL over once it passes walLimitMb, even while writes never pause', async () => {
    const path = nextPath();
    const store = new SqliteStore({ path, walLimitMb: 0.25 });
    // The WAL header's checkpoint sequence (bytes 12-15) goes up each time the WAL starts over.
    const header = Buffer.alloc(16);
    const restarts = (): number => {
      const fd = openSync(`${path}-wal`, 'r');
      try {
        return readSync(fd, header, 0, 16, 0) === 16 ? header.readUInt32BE(12) : 0;
      } finally {
        closeSync(fd);
      }
    };
    let turn = 0;
    for (; turn <= CHECKPOINTER_AFTER_WRITES / 50; turn++)
      await Promise.all(Array.from({ length: 50 }, (_, i) => store.setValue(`k${i}`, turn)));
    const first = restarts();
    let biggest = 0;
    const deadline = Date.now() + 10_000;
    // Group after group with no pause between them: a passive checkpoint never catches up.
    while (restarts() < first + 3 && Date.now() < deadline) {
      const value = 'x'.repeat(400) + String(turn++);
      await Promise.all(Array.from({ length: 50 }, (_, i) => store.setValue(`k${i}`, value)));
      biggest = Math.max(biggest, statSync(`${path}-wal`).size);
    }
    expect(restarts()).toBeGreaterThanOrEqual(first + 3);
    expect(await store.getValue('k49')).toBe('x'.repeat(400) + String(turn - 1));
    await store.close();
    // It did pass the limit: the restarts were the thread's catch-ups, not idle moments.
    expect(biggest).toBeGreaterThan(0.25 * 2 ** 20);
  });

  it('should not stall its writes on the WAL catch-up while another process reads an old snapshot', async () => {
    const path = nextPath();
    const store = new SqliteStore({ path, walLimitMb: 0.25 });
    for (let i = 0; i <= CHECKPOINTER_AFTER_WRITES; i++) await store.setValue(`k${i}`, i);
    // A reader holds its snapshot for 2.5 s: a checkpoint cannot copy past it, and one that
    // waited for it would sleep in the busy handler on the thread that serves the bot.
    const child = await holdInChild(
      path,
      "db.exec('BEGIN'); db.prepare('SELECT COUNT(*) FROM kv').get()",
      2500,
    );
    let longest = 0;
    const until = Date.now() + 2000;
    for (let turn = 0; Date.now() < until; turn++) {
      const started = Date.now();
      const value = 'x'.repeat(400) + String(turn);
      await Promise.all(Array.from({ length: 50 }, (_, i) => store.setValue(`k${i}`, value)));
      longest = Math.max(longest, Date.now() - started);
    }
    await once(child, 'exit');
    // The writer's own waits (for another writer) are as configured again.
    const waitMs = store.database.prepare('PRAGMA busy_timeout').raw().get() as [number];
    await store.close();
    // Several catch-ups were asked for in those 2 s (the WAL passes 0.25 MiB in a few turns).
    expect(longest).toBeLessThan(1000);
    expect(waitMs).toEqual([2000]);
  });

  it("should close the checkpointer's own descriptor of the file with closeFile()", async () => {
    const path = nextPath();
    const store = new SqliteStore({ path, backgroundCheckpoints: false });
    const open = (): number =>
      readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === path;
        } catch {
          return false; // closed while listed (readdir's own descriptor)
        }
      }).length;
    const before = open();
    const checkpointer = startCheckpointer(store.database, path);
    expect(open()).toBe(before + 1);
    await checkpointer.stop();
    const stopped = open();
    checkpointer.closeFile();
    expect(open()).toBe(stopped - 1);
    await store.close();
  });

  it('should checkpoint on every look while writes are busy, every QUIET_CHECKPOINT_MS while they are few, never while nothing was committed', async () => {
    const path = nextPath();
    const store = new SqliteStore({ path, backgroundCheckpoints: false });
    const seen: number[] = [];
    const checkpointer = startCheckpointer(
      store.database,
      path,
      () => undefined,
      20,
      undefined,
      (frames) => seen.push(frames),
    );
    // The schema's commits: copied at the first look.
    expect(await waitUntil(() => seen.length === 1, 5_000)).toBe(true);
    const startedAt = Date.now();
    // Nothing committed: no checkpoint, look after look.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toHaveLength(1);
    // A few frames: copied only once QUIET_CHECKPOINT_MS has passed since the last copy.
    await store.setValue('small', 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toHaveLength(1);
    expect(await waitUntil(() => seen.length === 2, QUIET_CHECKPOINT_MS + 2_000)).toBe(true);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(QUIET_CHECKPOINT_MS - 300);
    // Many frames (over 1,024 a second since the last copy): busy, so the next commit is
    // copied at the next look.
    await Promise.all(
      Array.from({ length: 3_000 }, (_, i) => store.setValue(`big${i}`, 'x'.repeat(4_000))),
    );
    expect(await waitUntil(() => seen.length === 3, QUIET_CHECKPOINT_MS + 2_000)).toBe(true);
    const busyAt = Date.now();
    await store.setValue('after', 1);
    expect(await waitUntil(() => seen.length === 4, 1_000)).toBe(true);
    expect(Date.now() - busyAt).toBeLessThan(QUIET_CHECKPOINT_MS);
    await checkpointer.stop();
    checkpointer.closeFile();
    await store.close();
  });

  it('should give automatic checkpoints back when the checkpointer thread fails', async () => {
    const store = new SqliteStore({ path: nextPath(), backgroundCheckpoints: false });
    const errors: string[] = [];
    const checkpointer = startCheckpointer(
      store.database,
      join(dir, 'no-such-folder', 'x.db'),
      (message) => errors.push(message),
    );
    expect(await waitUntil(() => errors.length > 0, 10_000)).toBe(true);
    await checkpointer.stop();
    const auto = (): number =>
      Number((store.database.prepare('PRAGMA wal_autocheckpoint').raw().get() as [number])[0]);
    expect(auto()).toBe(1000);
    expect(errors[0]).toMatch(/^WAL checkpointer stopped: /);
    await store.close();
  });

  it('should finish close() with its checkpointer thread in a process that has nothing else to do', () => {
    const path = nextPath();
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { SqliteStore, CHECKPOINTER_AFTER_WRITES } from './src/store/sqlite-store.ts';
         const store = new SqliteStore({ path: ${JSON.stringify(path)} });
         for (let i = 0; i <= CHECKPOINTER_AFTER_WRITES; i++) await store.setValue('k' + i, i);
         await store.close();
         console.log('closed');`,
      ],
      { encoding: 'utf8', cwd: process.cwd() },
    );
    // 13 would be Node's "unsettled top-level await": close() waiting on nothing alive.
    expect({ status: child.status, stdout: child.stdout.trim() }).toEqual({
      status: 0,
      stdout: 'closed',
    });
  });

  it('should size the page cache from cacheMb (128 MiB by default) and refuse a bad size', async () => {
    const cache = (store: SqliteStore): number =>
      Number((store.database.prepare('PRAGMA cache_size').raw().get() as [number])[0]);
    const byDefault = new SqliteStore({ path: nextPath() });
    expect(cache(byDefault)).toBe(-128 * 1024);
    await byDefault.close();
    const small = new SqliteStore({ path: nextPath(), cacheMb: 4 });
    expect(cache(small)).toBe(-4 * 1024);
    await small.close();
    expect(() => new SqliteStore({ path: nextPath(), cacheMb: 0 })).toThrow(
      'SqliteStore cacheMb must be a positive number of MiB, got 0',
    );
  });

  it('should cut the WAL file back to walLimitMb (64 MiB by default) once it starts over', async () => {
    const limit = (store: SqliteStore): number =>
      Number((store.database.prepare('PRAGMA journal_size_limit').raw().get() as [number])[0]);
    const byDefault = new SqliteStore({ path: nextPath() });
    expect(limit(byDefault)).toBe(64 * 2 ** 20);
    await byDefault.close();
    expect(() => new SqliteStore({ path: nextPath(), walLimitMb: -1 })).toThrow(
      'SqliteStore walLimitMb must be a positive number of MiB, got -1',
    );

    const path = nextPath();
    const store = new SqliteStore({ path, walLimitMb: 0.25 });
    const walBytes = (): number => statSync(`${path}-wal`).size;
    // A burst: group commits of 200 writes each until the WAL is well past the limit.
    let turns = 0;
    while (walBytes() <= 2 ** 20 && turns < 200) {
      const turn = turns++;
      await Promise.all(
        Array.from({ length: 200 }, (_, i) => store.setValue(`k${turn}:${i}`, 'x'.repeat(400))),
      );
    }
    expect(walBytes()).toBeGreaterThan(2 ** 20);
    // Once the checkpointer has caught up, the next write starts the WAL over and cuts it.
    const cut = await waitUntil(async () => {
      await store.setValue('after', Date.now());
      return walBytes() <= 0.25 * 2 ** 20;
    }, 10_000);
    expect(cut).toBe(true);
    expect(await store.getValue(`k${turns - 1}:199`)).toBe('x'.repeat(400));
    await store.close();
  });
});
