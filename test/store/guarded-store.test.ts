import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/core/clock.js';
import type { Logger } from '../../src/log/logger.js';
import { guardStore, StoreUnavailableError } from '../../src/store/guarded-store.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { StoreDataError } from '../../src/store/store-data-error.js';
import type { Store } from '../../src/store/store.js';

function recordingLogger(): { logger: Logger; lines: { level: string; message: string }[] } {
  const lines: { level: string; message: string }[] = [];
  const at =
    (level: string) =>
    (message: string): void =>
      void lines.push({ level, message });
  const logger = {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
  } as unknown as Logger;
  return { logger, lines };
}

/** A memory store whose reads fail while `down` is set, like Redis during an outage. */
function flaky(): { store: Store; down: { value: boolean } } {
  const inner = new MemoryStore({ clock: new ManualClock(0) });
  const down = { value: false };
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        if (down.value) return Promise.reject(new Error('Connection is closed.'));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, down };
}

describe('guardStore', () => {
  it('should log one line per outage and one on recovery, and throw a typed error meanwhile', async () => {
    const { logger, lines } = recordingLogger();
    const { store, down } = flaky();
    const guarded = guardStore(store, { logger, clock: new ManualClock(0) });
    expect(await guarded.probe()).toBe(true);
    down.value = true;
    for (let i = 0; i < 5; i++) {
      await expect(guarded.getValue('k')).rejects.toBeInstanceOf(StoreUnavailableError);
    }
    expect(guarded.healthy).toBe(false);
    expect(await guarded.probe()).toBe(false);
    down.value = false;
    expect(await guarded.probe()).toBe(true);
    expect(guarded.healthy).toBe(true);
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(1);
    expect(lines.filter((l) => l.message === 'store recovered')).toHaveLength(1);
  });

  it('should pass decisions (corrupt data, bad values) through unchanged, staying healthy', async () => {
    const { logger, lines } = recordingLogger();
    const inner = new MemoryStore();
    const guarded = guardStore(
      new Proxy(inner, {
        get(target, property, receiver) {
          if (property === 'getSend') return () => Promise.reject(new StoreDataError('k', 'bad'));
          return Reflect.get(target, property, receiver) as unknown;
        },
      }),
      { logger },
    );
    await expect(guarded.getSend('x')).rejects.toBeInstanceOf(StoreDataError);
    await expect(guarded.setValue('v', () => 1)).rejects.toBeInstanceOf(TypeError);
    expect(guarded.healthy).toBe(true);
    expect(lines).toEqual([]);
  });

  it('should judge a synchronous throw like a rejection, and pass the optional read through', async () => {
    const { logger } = recordingLogger();
    const inner = new MemoryStore();
    let throwing = true;
    const guarded = guardStore(
      new Proxy(inner, {
        get(target, property, receiver) {
          const value: unknown = Reflect.get(target, property, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]): unknown => {
            if (throwing && property === 'getValue') throw new Error('socket gone');
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      }),
      { logger },
    );
    await expect(guarded.getValue('k')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(guarded.healthy).toBe(false);
    throwing = false;
    expect(await guarded.getValue('k')).toBeUndefined();
    expect(guarded.healthy).toBe(true);
    await guarded.putConversation('c1', { a: 1 }, 0);
    expect(await guarded.getConversationIfChanged?.('c1', 1)).toBe('unchanged');
    const taken = await guarded.acquireConversation?.('c1', 'w1', 1000, Date.now());
    expect(taken?.lease.name).toBe('conv:c1');
    expect(await guarded.releaseConversation?.('c1', 'w1')).toBe(0);
    // A store without the optional calls: the guarded one has none either.
    const {
      getConversationIfChanged: _left,
      acquireConversation: _acquire,
      releaseConversation: _release,
      ...plain
    } = Object.fromEntries(
      Object.getOwnPropertyNames(MemoryStore.prototype).map((k) => [
        k,
        (...a: unknown[]) =>
          (Reflect.get(inner, k) as (...x: unknown[]) => unknown).apply(inner, a),
      ]),
    );
    const guardedPlain = guardStore(plain as unknown as Store, { logger });
    for (const name of ['getConversationIfChanged', 'acquireConversation', 'releaseConversation'])
      expect(name in guardedPlain).toBe(false);
  });
});
