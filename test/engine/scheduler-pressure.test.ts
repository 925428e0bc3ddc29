import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/logger.js';
import { ConversationScheduler } from '../../src/engine/scheduler.js';

/** A drain per conversation that stays open until the test lets it finish. */
function heldDrains() {
  const open = new Map<string, () => void>();
  const started: string[] = [];
  const drain = (id: string): Promise<void> =>
    new Promise<void>((resolve) => {
      started.push(id);
      open.set(id, resolve);
    });
  const finish = (id: string): void => {
    open.get(id)?.();
    open.delete(id);
  };
  return { drain, started, finish, running: () => open.size };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const ids = (count: number): string[] => Array.from({ length: count }, (_, i) => `c${i}`);

describe('ConversationScheduler under pressure', () => {
  it('starts at most the pressure limit while requests come in, then the full concurrency', async () => {
    const drains = heldDrains();
    const source = { underPressure: true, pressureMs: 60_000 };
    const scheduler = new ConversationScheduler(drains.drain, 8, silentLogger, {
      source,
      concurrency: 2,
    });
    for (const id of ids(10)) scheduler.schedule(id);
    await turn();
    expect(drains.started).toEqual(['c0', 'c1']);
    // Still pressed: a drain that ends makes room for one more, not more.
    drains.finish('c0');
    await turn();
    expect(drains.started).toEqual(['c0', 'c1', 'c2']);
    expect(drains.running()).toBe(2);
    // The burst is over: the next drain that ends lets the full concurrency run.
    source.underPressure = false;
    drains.finish('c1');
    await turn();
    expect(drains.running()).toBe(8);
    expect(drains.started).toEqual(ids(10));
    for (const id of ids(10)) drains.finish(id);
    await scheduler.idle();
  });

  it('looks again once the pressure may have passed, with no drain ending meanwhile', async () => {
    const drains = heldDrains();
    const source = { underPressure: true, pressureMs: 5 };
    const scheduler = new ConversationScheduler(drains.drain, 4, silentLogger, {
      source,
      concurrency: 1,
    });
    for (const id of ids(4)) scheduler.schedule(id);
    await turn();
    expect(drains.started).toEqual(['c0']);
    source.underPressure = false;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(drains.started).toEqual(ids(4));
    for (const id of ids(4)) drains.finish(id);
    await scheduler.idle();
  });

  it('never starts fewer than one, whatever the pressure limit', async () => {
    const drains = heldDrains();
    const scheduler = new ConversationScheduler(drains.drain, 4, silentLogger, {
      source: { underPressure: true, pressureMs: 60_000 },
      concurrency: 0,
    });
    for (const id of ids(2)) scheduler.schedule(id);
    await turn();
    expect(drains.started).toEqual(['c0']);
    drains.finish('c0');
    await turn();
    expect(drains.started).toEqual(ids(2));
    drains.finish('c1');
    await scheduler.idle();
  });

  it('runs the full concurrency without a pressure source', async () => {
    const drains = heldDrains();
    const scheduler = new ConversationScheduler(drains.drain, 3, silentLogger);
    for (const id of ids(5)) scheduler.schedule(id);
    await turn();
    expect(drains.started).toEqual(ids(3));
    for (const id of ids(3)) drains.finish(id);
    await turn();
    expect(drains.started).toEqual(ids(5));
    for (const id of ids(5)) drains.finish(id);
    await scheduler.idle();
  });
});
