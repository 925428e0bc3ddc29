import Database from 'libsql';
import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/store/sqlite-group-commit.js';

function setup(): { db: Database.Database; group: GroupCommit; count: () => number } {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (n INTEGER)');
  const group = new GroupCommit(db);
  const count = (): number => (db.prepare('SELECT COUNT(*) FROM t').raw().get() as [number])[0];
  return { db, group, count };
}

describe('GroupCommit.betweenGroups', () => {
  it('should run a task at once when no group is open', () => {
    const { db, group } = setup();
    const seen: boolean[] = [];
    group.betweenGroups(() => seen.push(db.inTransaction));
    expect(seen).toEqual([false]);
  });

  it('should run a task once the open group has committed, outside any transaction', async () => {
    const { db, group, count } = setup();
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    const written = group.write(() => insert.run(1), false);
    const seen: Array<{ inTransaction: boolean; rows: number }> = [];
    group.betweenGroups(() => seen.push({ inTransaction: db.inTransaction, rows: count() }));
    expect(seen).toEqual([]);
    await written;
    expect(seen).toEqual([{ inTransaction: false, rows: 1 }]);
    // Not run again by a later group.
    await group.write(() => insert.run(2), false);
    expect(seen).toHaveLength(1);
  });

  it('should run the task when the commit fails too, and reject the writes', async () => {
    const { db, group } = setup();
    const written = group.write(() => db.prepare('INSERT INTO t (n) VALUES (1)').run(), false);
    let ran = 0;
    group.betweenGroups(() => ran++);
    // The group's transaction is gone before the commit: COMMIT fails.
    db.exec('ROLLBACK');
    await expect(written).rejects.toThrow();
    expect(ran).toBe(1);
    expect(db.inTransaction).toBe(false);
  });
});

describe('GroupCommit.soon', () => {
  it('should run a write in the open group at once', async () => {
    const { db, group, count } = setup();
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    const written = group.write(() => insert.run(1), false);
    group.soon(
      () => void insert.run(2),
      60_000,
      () => undefined,
    );
    expect(count()).toBe(2);
    await written;
  });

  it('should run a waiting write first in the next group, oldest first', async () => {
    const { db, group } = setup();
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    group.soon(
      () => void insert.run(1),
      60_000,
      () => undefined,
    );
    group.soon(
      () => void insert.run(2),
      60_000,
      () => undefined,
    );
    expect(db.inTransaction).toBe(false);
    await group.write(() => insert.run(3), false);
    const rows = db.prepare('SELECT n FROM t ORDER BY rowid').raw().all() as [number][];
    expect(rows.map((r) => r[0])).toEqual([1, 2, 3]);
  });

  it('should commit a waiting write in a group of its own after withinMs', async () => {
    const { db, group, count } = setup();
    group.soon(
      () => void db.prepare('INSERT INTO t (n) VALUES (1)').run(),
      20,
      () => undefined,
    );
    expect(db.inTransaction).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(db.inTransaction).toBe(false);
    expect(count()).toBe(1);
  });

  it('should write the waiting writes on flush, and report a throw to onError', () => {
    const { db, group, count } = setup();
    const errors: string[] = [];
    group.soon(
      () => void db.prepare('INSERT INTO nowhere (n) VALUES (1)').run(),
      60_000,
      (e) => errors.push(e.message),
    );
    group.soon(
      () => void db.prepare('INSERT INTO t (n) VALUES (1)').run(),
      60_000,
      () => undefined,
    );
    group.flush();
    expect(db.inTransaction).toBe(false);
    expect(count()).toBe(1);
    expect(errors).toEqual([expect.stringContaining('nowhere')]);
  });
});

describe('GroupCommit.lazy', () => {
  it('should return at once and commit with the next write that waits', async () => {
    const { db, group, count } = setup();
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    expect(group.lazy(() => insert.run(1).changes, false, 60_000)).toBe(1);
    // Not committed after this turn: nobody waits for it.
    await new Promise((resolve) => setImmediate(resolve));
    expect(db.inTransaction).toBe(true);
    await group.write(() => insert.run(2), false);
    expect(db.inTransaction).toBe(false);
    expect(count()).toBe(2);
  });

  it('should commit alone withinMs later when no write comes', async () => {
    const { db, group, count } = setup();
    group.lazy(() => db.prepare('INSERT INTO t (n) VALUES (1)').run(), false, 20);
    expect(db.inTransaction).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(db.inTransaction).toBe(false);
    expect(count()).toBe(1);
  });

  it('should undo only its own savepoint when it throws, and throw', async () => {
    const { db, group, count } = setup();
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    expect(() =>
      group.lazy(
        () => {
          insert.run(1);
          throw new Error('boom');
        },
        true,
        60_000,
      ),
    ).toThrow('boom');
    await group.write(() => insert.run(2), false);
    expect(count()).toBe(1);
  });
});
