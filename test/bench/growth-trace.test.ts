import Database from 'libsql';
import { describe, expect, it } from 'vitest';
import { readBytes, threadCpuMs, traceStatements } from '../../bench/growth-trace.js';

describe('growth bench figures', () => {
  it('should read disk bytes and thread CPU from /proc, never going backwards', () => {
    const before = [readBytes(), readBytes('thread-self'), threadCpuMs()];
    const end = Date.now() + 50;
    let spin = 0;
    while (Date.now() < end) spin++;
    expect(spin).toBeGreaterThan(0);
    const after = [readBytes(), readBytes('thread-self'), threadCpuMs()];
    after.forEach((value, i) => expect(value).toBeGreaterThanOrEqual(before[i] ?? 0));
    // 50 ms of spinning on this thread shows in its CPU (10-ms ticks).
    expect((after[2] ?? 0) - (before[2] ?? 0)).toBeGreaterThanOrEqual(20);
  });

  it('should count each statement of a connection prepared after tracing began', () => {
    const trace = traceStatements();
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO t (k) VALUES (?)');
    const get = db.prepare('SELECT k FROM   t WHERE k = ?');
    for (let i = 0; i < 3; i++) insert.run(`k${i}`);
    expect(get.get('k1')).toMatchObject({ k: 'k1' });
    const figures = trace.take();
    expect(figures.map((f) => [f.sql, f.calls])).toEqual(
      expect.arrayContaining([
        ['INSERT INTO t (k) VALUES (?)', 3],
        ['SELECT k FROM t WHERE k = ?', 1],
      ]),
    );
    expect(trace.take()).toEqual([]);
    db.close();
  });
});
