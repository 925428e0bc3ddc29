import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/api/resources.js';
import { HistoryLine } from '../../src/engine/history-line.js';
import {
  HISTORY_LINE_KEY,
  isBeforeLine,
  lineOfFirstRead,
} from '../../src/engine/history-line-of.js';
import type { Logger } from '../../src/log/logger.js';
import { silentLogger } from '../../src/log/logger.js';
import { MemoryStore } from '../../src/store/memory-store.js';

const T = Date.parse('2026-05-01T10:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();

/** A conversation whose newest message is `id` at `at`. */
function conversation(n: number, at: number, id = `m${n}`): Conversation {
  return {
    id: `c${n}`,
    contactId: `k${n}`,
    phoneNumber: `+1555000000${n}`,
    contactName: `Contact ${n}`,
    lastMessageAt: iso(at),
    humanOwned: false,
    lastMessage: {
      id,
      conversationId: `c${n}`,
      contactId: `k${n}`,
      direction: 'inbound',
      status: 'received',
      type: 'text',
      text: { body: 'hi' },
      occurredAt: iso(at),
    },
  };
}

/** A client answering `pages` in turn (an Error is thrown), counting its reads. */
function client(...pages: Array<readonly Conversation[] | Error>) {
  const reads: Array<{ limit?: number }> = [];
  return {
    reads,
    listConversations(options: { limit?: number } = {}) {
      reads.push(options);
      const page = pages[Math.min(reads.length - 1, pages.length - 1)];
      if (page instanceof Error) return Promise.reject(page);
      return Promise.resolve({ items: page ?? [], nextCursor: null });
    },
  };
}

function recording(): { logger: Logger; lines: Array<[string, string]> } {
  const lines: Array<[string, string]> = [];
  const at = (level: string) => (message: string) => void lines.push([level, message]);
  const logger: Logger = {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    child: () => logger,
  };
  return { logger, lines };
}

describe('lineOfFirstRead', () => {
  it('should take the newest message of the page and the ids seen at its very ms', () => {
    const line = lineOfFirstRead([
      conversation(1, T, 'a'),
      conversation(2, T, 'b'),
      conversation(3, T - 1, 'c'),
    ]);
    expect(line).toEqual({ at: T, ids: ['a', 'b'], source: 'api' });
  });

  it('should find the newest even when the page is not in order', () => {
    expect(lineOfFirstRead([conversation(1, T - 5), conversation(2, T + 7, 'x')])).toEqual({
      at: T + 7,
      ids: ['x'],
      source: 'api',
    });
  });

  it('should give a number with no conversation no history at all', () => {
    expect(lineOfFirstRead([])).toEqual({ at: 0, ids: [], source: 'empty' });
  });
});

describe('isBeforeLine', () => {
  const line = { at: T, ids: ['seen'], source: 'api' as const };
  it.each([
    ['a message a ms before the line', T - 1, 'x', 0, true],
    ['the message the first read saw at the line', T, 'seen', 0, true],
    ['another message at the line (arrived in that ms after the read)', T, 'later', 0, false],
    ['a message without id at the line', T, undefined, 0, false],
    ['a message a ms after the line', T + 1, 'x', 0, false],
    ['a message inside the backfill', T - 60_000, 'x', 60_000, false],
    ['a message at the backfill floor', T - 60_000, 'x', 60_000, false],
    ['a message before the backfill floor', T - 60_001, 'x', 60_000, true],
  ])('should judge %s', (_what, at, id, backfill, history) => {
    expect(isBeforeLine(line, backfill, at, id)).toBe(history);
  });

  it('should keep a line written by an older version (no ids) as a plain time', () => {
    expect(isBeforeLine({ at: T }, 0, T - 1)).toBe(true);
    expect(isBeforeLine({ at: T }, 0, T, 'm')).toBe(false);
  });
});

describe('HistoryLine', () => {
  it('should decide the line from the first read and record it for every later start', async () => {
    const store = new MemoryStore();
    const api = client([conversation(1, T, 'a')]);
    const history = new HistoryLine({ store, client: api, logger: silentLogger, backfillMs: 0 });
    await history.begin();
    expect(history.decided).toEqual({ at: T, ids: ['a'], source: 'api' });
    expect(api.reads).toEqual([{ limit: 100 }]);
    expect(await store.getValue(HISTORY_LINE_KEY)).toEqual({ at: T, ids: ['a'], source: 'api' });
    // A restart reads the store, not the API (whose newest message moved on).
    const later = client([conversation(1, T + 60_000, 'b')]);
    const again = new HistoryLine({ store, client: later, logger: silentLogger, backfillMs: 0 });
    expect(await again.isHistory(T, 'a')).toBe(true);
    expect(await again.isHistory(T + 1, 'b')).toBe(false);
    expect(later.reads).toEqual([]);
  });

  it('should make fresh workers racing on one store agree on the first writer', async () => {
    const store = new MemoryStore();
    const lines = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        new HistoryLine({
          store,
          client: client([conversation(1, T + i * 1000, `m${i}`)]),
          logger: silentLogger,
          backfillMs: 0,
        }).line(),
      ),
    );
    const stored = await store.getValue(HISTORY_LINE_KEY);
    for (const line of lines) expect(line).toEqual(stored);
  });

  it('should decide from an offered first read without reading again', async () => {
    const api = client([conversation(1, T + 5_000)]);
    const history = new HistoryLine({
      store: new MemoryStore(),
      client: api,
      logger: silentLogger,
      backfillMs: 0,
    });
    history.offer([conversation(2, T, 'first')]);
    expect(await history.line()).toEqual({ at: T, ids: ['first'], source: 'api' });
    expect(api.reads).toEqual([]);
  });

  it('should wait and retry with backoff while the API does not answer, never guessing', async () => {
    const { logger, lines } = recording();
    const waits: number[] = [];
    const api = client(new Error('ECONNREFUSED'), new Error('ECONNREFUSED'), new Error('503'), [
      conversation(1, T, 'a'),
    ]);
    const history = new HistoryLine({
      store: new MemoryStore(),
      client: api,
      logger,
      backfillMs: 0,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
      retryBaseMs: 100,
      retryMaxMs: 250,
    });
    expect(await history.line()).toEqual({ at: T, ids: ['a'], source: 'api' });
    expect(waits).toEqual([100, 200, 250]);
    expect(lines.filter(([level]) => level === 'warn')).toHaveLength(1);
    expect(lines.map(([, m]) => m)).toContain('history line decided; answering from now on');
  });

  it('should resolve begin() after a failed first attempt and keep deciding', async () => {
    let wake: () => void = () => undefined;
    const api = client(new Error('down'), [conversation(1, T, 'a')]);
    const history = new HistoryLine({
      store: new MemoryStore(),
      client: api,
      logger: silentLogger,
      backfillMs: 0,
      sleep: () => new Promise((resolve) => (wake = resolve)),
    });
    await history.begin();
    expect(history.decided).toBeUndefined();
    const line = history.line();
    wake();
    expect(await line).toMatchObject({ at: T });
  });

  it('should wait for a read made elsewhere instead of reading itself', async () => {
    const api = client([conversation(1, T + 9_000)]);
    const history = new HistoryLine({
      store: new MemoryStore(),
      client: api,
      logger: silentLogger,
      backfillMs: 0,
      readElsewhere: true,
    });
    await history.begin();
    expect(history.decided).toBeUndefined();
    const line = history.line();
    history.offer([conversation(1, T, 'a')]);
    expect(await line).toEqual({ at: T, ids: ['a'], source: 'api' });
    expect(api.reads).toEqual([]);
  });

  it('should end a wait for the line when stopped', async () => {
    const history = new HistoryLine({
      store: new MemoryStore(),
      client: client(new Error('down')),
      logger: silentLogger,
      backfillMs: 0,
    });
    const line = history.line();
    history.stop();
    await expect(line).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('should refuse a corrupt stored line with a message saying how to fix it', async () => {
    const store = new MemoryStore();
    await store.setValue(HISTORY_LINE_KEY, { at: 'yesterday' });
    const { logger, lines } = recording();
    const history = new HistoryLine({
      store,
      client: client([]),
      logger,
      backfillMs: 0,
      sleep: () => Promise.reject(new Error('stop here')),
    });
    await expect(history.line()).rejects.toThrow('stop here');
    expect(lines.find(([level]) => level === 'warn')?.[1]).toContain('history line not decided');
  });
});
