import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateFileReadOnly, SqliteStateReader } from '../../src/store/sqlite-reader.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';

/**
 * The reader behind `inspect`, `conversations` and `studio --attach` must never write the
 * state file a running bot holds: its connection is read-only and `query_only`.
 */
describe('SqliteStateReader', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-reader-'));
  const path = join(dir, 'state.db');
  let store: SqliteStore;

  beforeAll(async () => {
    store = new SqliteStore({ path });
    await store.putConversation('conv_ro', { state: 'welcome' }, 0);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should open its connection with query_only set', () => {
    const db = openStateFileReadOnly(path);
    try {
      expect(db.prepare('PRAGMA query_only').raw().get()).toEqual([1]);
    } finally {
      db.close();
    }
  });

  it('should refuse a write through its connection while the bot holds the file', async () => {
    const db = openStateFileReadOnly(path);
    try {
      expect(() => db.exec("DELETE FROM conversations WHERE id = 'conv_ro'")).toThrow(/readonly/i);
      expect(() =>
        db.exec("INSERT INTO meta (key, value) VALUES ('written_by_reader', '1')"),
      ).toThrow(/readonly/i);
      // The read-only open refuses on its own too (query_only lifted).
      db.exec('PRAGMA query_only = 0');
      expect(() => db.exec("DELETE FROM conversations WHERE id = 'conv_ro'")).toThrow(/readonly/i);
    } finally {
      db.close();
    }
    expect((await store.getConversation('conv_ro'))?.value).toEqual({ state: 'welcome' });
  });

  it('should open a path with URI characters in it', async () => {
    const odd = join(dir, 'a b#c%d?');
    mkdirSync(odd);
    const other = new SqliteStore({ path: join(odd, 'state.db') });
    await other.putConversation('conv_ro', { state: 'welcome' }, 0);
    await other.close();
    const reader = new SqliteStateReader(join(odd, 'state.db'));
    try {
      expect((await reader.getConversation('conv_ro'))?.value).toEqual({ state: 'welcome' });
    } finally {
      await reader.close();
    }
  });

  it('should still read what the bot wrote', async () => {
    await store.putConversation('conv_ro2', { state: 'asked' }, 0);
    const reader = new SqliteStateReader(path);
    try {
      expect((await reader.getConversation('conv_ro2'))?.value).toEqual({ state: 'asked' });
    } finally {
      await reader.close();
    }
  });
});
