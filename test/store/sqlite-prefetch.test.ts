import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import { SqlitePrefetch, prefetchWanted } from '../../src/store/sqlite-prefetch.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { storeContractSuite } from './store-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-prefetch-'));
let files = 0;
const nextPath = (): string => join(dir, `state-${++files}.db`);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const item = (id: string, sortKey: number): { id: string; sortKey: number; payload: unknown } => ({
  id,
  sortKey,
  payload: { text: id },
});

// Every enqueue waits for the prefetch threads: the whole contract must hold so.
storeContractSuite('SqliteStore with the prefetch threads', () => {
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
  const store = new SqliteStore({ path: nextPath(), clock, prefetch: true });
  return Promise.resolve({ store, clock, cleanup: () => store.close() });
});

describe('SqlitePrefetch', () => {
  it('should run its lookups on a state file without an error, resolving in call order', async () => {
    const path = nextPath();
    const store = new SqliteStore({ path, prefetch: false });
    await store.enqueue('conv_1', item('m1', 1), 60_000);
    await store.putConversation('conv_1', { step: 1 }, 0);
    const errors: string[] = [];
    const prefetch = new SqlitePrefetch(path, {
      onError: (message) => errors.push(message),
      startCold: true,
    });
    const order: number[] = [];
    const warmed = [0, 1, 2, 3].map((n) =>
      prefetch.warm(n % 2 === 0 ? 'conv_1' : 'conv_absent', `i\u0000conv_1\u0000m${n}`),
    );
    await Promise.all(
      warmed.map((p, n) => {
        if (p === undefined) throw new Error(`warm ${n} returned no promise`);
        return p.then(() => order.push(n));
      }),
    );
    expect(order).toEqual([0, 1, 2, 3]);
    // A statement the schema no longer fits (a renamed column, an index gone) is told here.
    expect(errors).toEqual([]);
    await prefetch.stop();
    expect(prefetch.running).toBe(false);
    expect(prefetch.warm('conv_1', 'k')).toBeUndefined();
    await store.close();
  });

  it('should have callers wait only while its lookups read the disk lately', async () => {
    const path = nextPath();
    const store = new SqliteStore({ path, prefetch: false });
    await store.putConversation('conv_1', { step: 1 }, 0);
    // The file was just written: its pages are in memory, no lookup reads the disk.
    const prefetch = new SqlitePrefetch(path, { coldForMs: 300, sampleEvery: 2, startCold: true });
    expect(prefetch.cold).toBe(true);
    await prefetch.warm('conv_1', 'k1');
    await expect.poll(() => prefetch.cold, { timeout: 5_000 }).toBe(false);
    expect(prefetch.warm('conv_1', 'k2')).toBeUndefined();
    expect(prefetch.warm('conv_1', 'k3')).toBeUndefined(); // sampled: looked up, not waited for
    await prefetch.stop();
    await store.close();
    // Not told to start cold: nobody waits until a lookup reads the disk.
    const warm = new SqlitePrefetch(path);
    expect(warm.cold).toBe(false);
    expect(warm.warm('conv_1', 'k1')).toBeUndefined();
    await warm.stop();
  });

  it('should let waiting callers go and stop taking requests when its threads fail', async () => {
    const errors: string[] = [];
    // Not a SQLite file: each thread fails as it prepares its statements.
    const path = nextPath();
    writeFileSync(path, 'not a database, '.repeat(512));
    const prefetch = new SqlitePrefetch(path, {
      onError: (message) => errors.push(message),
      startCold: true,
    });
    await prefetch.warm('conv_1', 'k');
    await expect.poll(() => prefetch.running).toBe(false);
    expect(errors.join('\n')).toMatch(/SQLite prefetch thread failed/);
    expect(prefetch.warm('conv_1', 'k')).toBeUndefined();
    await prefetch.stop();
  });
});

describe('SqliteStore with the prefetch threads', () => {
  it('should keep two enqueues of one conversation in call order, and deduplicate', async () => {
    const store = new SqliteStore({ path: nextPath(), prefetch: true });
    // Same sort key: only the order of the calls orders them.
    const results = await Promise.all([
      store.enqueue('conv_1', item('a', 5), 60_000),
      store.enqueue('conv_1', item('b', 5), 60_000),
      store.enqueue('conv_1', item('a', 5), 60_000),
    ]);
    expect(results).toEqual([true, true, false]);
    expect((await store.peekInbox('conv_1', 10)).map((i) => i.id)).toEqual(['a', 'b']);
    await store.close();
  });

  it('should commit an enqueue still waiting for the threads when the store closes', async () => {
    const path = nextPath();
    const store = new SqliteStore({ path, prefetch: true });
    const enqueued = store.enqueue('conv_1', item('late', 1), 60_000);
    await store.close();
    expect(await enqueued).toBe(true);
    const reopened = new SqliteStore({ path, prefetch: false });
    expect((await reopened.peekInbox('conv_1', 10)).map((i) => i.id)).toEqual(['late']);
    await reopened.close();
  });
});

describe('SqliteStore prefetch default', () => {
  it('should start the threads for a file larger than its page cache only', async () => {
    const small = new SqliteStore({ path: nextPath() });
    expect(small.prefetching).toBe(false);
    await small.close();
    // The schema alone makes a file of a few pages: larger than a 1-KiB page cache.
    const path = nextPath();
    await new SqliteStore({ path }).close();
    const large = new SqliteStore({ path, cacheMb: 1 / 1024 });
    expect(large.prefetching).toBe(true);
    await large.close();
    expect(large.prefetching).toBe(false);
  });
});

describe('prefetchWanted', () => {
  it('should want the threads only for a file larger than the page cache, unless told', () => {
    const path = nextPath();
    writeFileSync(path, Buffer.alloc(64 * 1024));
    expect(prefetchWanted(path, 1)).toBe(false);
    expect(prefetchWanted(path, 0.03125)).toBe(true);
    expect(prefetchWanted(path, 1, true)).toBe(true);
    expect(prefetchWanted(path, 0.03125, false)).toBe(false);
    expect(prefetchWanted(':memory:', 0.03125, true)).toBe(false);
    expect(prefetchWanted(join(dir, 'absent.db'), 0.03125)).toBe(false);
  });
});
