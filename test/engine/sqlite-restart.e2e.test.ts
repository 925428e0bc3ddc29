import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { ADA, HOUR, startHarness } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('engine on the SQLite state file: a restart loses nothing', () => {
  it('should fire a timer set before a restart once, when overdue, and answer nothing twice', async () => {
    const path = join(dir, 'state.db');
    const h = await startHarness();
    let store = new SqliteStore({ path, clock: h.clock });
    try {
      await h.restart({ store });
      await h.say(ADA, 'hello');
      await h.say(ADA, 'remind');
      await h.bot.idle();
      expect(h.sentTo(ADA)).toHaveLength(4);
      // The process goes away; the file stays. A day and more later it starts again.
      await h.bot.stop();
      await store.close();
      h.clock.advance(26 * HOUR);
      store = new SqliteStore({ path, clock: h.clock });
      await h.restart({ store });
      await h.bot.idle();
      await h.bot.runDueTimers();
      await h.bot.idle();
      expect(h.sentTo(ADA).slice(4)).toEqual(['template:hello_world']);
      // Another restart: the fired timer does not fire again.
      await h.restart({ store });
      await h.bot.runDueTimers();
      await h.bot.idle();
      expect(h.sentTo(ADA)).toHaveLength(5);
    } finally {
      await h.close();
      await store.close();
    }
  });
});
