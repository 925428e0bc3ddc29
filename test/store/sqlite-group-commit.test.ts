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
