import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { broadcast, type BroadcastConfig } from '../../src/broadcast/broadcast.js';
import { BroadcastJournal } from '../../src/broadcast/journal.js';
import { MessagingClient } from '../../src/api/client.js';
import { ManualClock } from '../../src/core/clock.js';
import { buildSendRequest, template } from '../../src/messages/index.js';
import {
  createSandbox,
  defaultSandboxConfig,
  parseSandboxConfig,
  type Sandbox,
} from '../../src/sandbox/index.js';

const START = Date.parse('2026-03-01T12:00:00.000Z');

interface Rig {
  readonly clock: ManualClock;
  readonly sandbox: Sandbox;
  readonly url: string;
  readonly apiKey: string;
  /** Responses by status, as the API answered them. */
  readonly statuses: Map<number, number>;
  /** Called after each accepted send (to interrupt a run). */
  onAccepted: (count: number) => void;
  readonly dir: string;
  close(): Promise<void>;
}

let rig: Rig;
afterEach(async () => {
  await rig.close();
});

async function startRig(): Promise<Rig> {
  const parsed = parseSandboxConfig({
    ...defaultSandboxConfig,
    templates: [
      ...defaultSandboxConfig.templates,
      { name: 'welcome', language: 'en_US' },
      { name: 'on_hold', language: 'en_US', status: 'paused' },
      { name: 'greet', language: 'en', components: [{ type: 'body', parameters: ['text'] }] },
    ],
  });
  if (parsed.status !== 'valid') throw new Error(parsed.message);
  const clock = new ManualClock(START);
  const sandbox = createSandbox({ config: parsed.config, clock, tickMs: 0 });
  const statuses = new Map<number, number>();
  let accepted = 0;
  const front = express();
  const r: Rig = {
    clock,
    sandbox,
    url: '',
    apiKey: parsed.config.keys[0]?.key ?? '',
    statuses,
    onAccepted: () => undefined,
    dir: mkdtempSync(join(tmpdir(), 'broadcast-')),
    close: () => Promise.resolve(),
  };
  front.use((_req, res, next) => {
    res.on('finish', () => {
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      if (res.statusCode === 202) r.onAccepted(++accepted);
    });
    next();
  });
  front.use(sandbox.app);
  const server = await new Promise<Server>((resolve) => {
    const s = front.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return Object.assign(r, {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await sandbox.close();
    },
  });
}

function phones(n: number, from = 0): string[] {
  return Array.from({ length: n }, (_, i) => `+1555600${String(from + i).padStart(4, '0')}`);
}

function writeCsv(lines: readonly string[], header = 'phone'): string {
  const file = join(rig.dir, 'contacts.csv');
  writeFileSync(file, `${header}\n${lines.join('\n')}\n`);
  return file;
}

const sink = (): Writable & { text: string } => {
  const w = new Writable({
    write(chunk: Buffer, _enc, done) {
      w.text += chunk.toString();
      done();
    },
  }) as Writable & { text: string };
  w.text = '';
  return w;
};

function run(
  config: Partial<BroadcastConfig> & { to: string },
  signal?: AbortSignal,
  apiTimeoutMs?: number,
) {
  const stdout = sink();
  const stderr = sink();
  const result = broadcast(
    {
      baseUrl: rig.url,
      apiKey: rig.apiKey,
      template: 'welcome',
      language: 'en_US',
      params: [],
      report: join(rig.dir, 'report.csv'),
      dryRun: false,
      ...config,
    },
    {
      stdout,
      stderr,
      tty: false,
      clock: rig.clock,
      // Waits pass on the manual clock the sandbox shares: minutes take milliseconds.
      sleep: async (ms) => {
        rig.clock.advance(ms);
        await new Promise((resolve) => setImmediate(resolve));
      },
      ...(signal === undefined ? {} : { signal }),
      ...(apiTimeoutMs === undefined ? {} : { apiTimeoutMs }),
    },
  );
  return { result, stdout, stderr };
}

function sendsPer(list: readonly string[]): number[] {
  const sent = rig.sandbox.control.sent();
  return list.map((p) => sent.filter((s) => s.to === p).length);
}

/** Waits in real time (a stalled POST) until `done`, or fails after `ms`. */
async function until(done: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`not done within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function reportLines(): string[][] {
  return readFileSync(join(rig.dir, 'report.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
}

describe('switchboard broadcast', () => {
  it('should send once to every contact without a 429 and report every row', async () => {
    rig = await startRig();
    const list = phones(60);
    const to = writeCsv([...list, 'not-a-phone', list[0] ?? '']);
    const { result, stdout } = run({ to });
    const { exitCode, summary } = await result;
    expect(exitCode).toBe(0);
    expect(sendsPer(list).every((n) => n === 1)).toBe(true);
    expect(rig.statuses.get(429)).toBeUndefined();
    expect(summary).toEqual({
      contacts: 60,
      accepted: 60,
      rejected: {},
      skipped: { duplicate: 1, invalid_phone: 1 },
      unknown: 0,
      notSent: 0,
    });
    const rows = reportLines();
    expect(rows).toHaveLength(62);
    const ids = new Set(rig.sandbox.control.sent().map((s) => s.messageId));
    expect(rows.filter((r) => r[2] === 'accepted').every((r) => ids.has(r[4] ?? ''))).toBe(true);
    expect(rows.at(-1)).toEqual(['63', list[0], 'skipped', 'duplicate', '']);
    expect(stdout.text).toContain('accepted: 60');
  });

  it('should resume after an interruption, never twice, counting the last run into the budget', async () => {
    rig = await startRig();
    const list = phones(60);
    const to = writeCsv(list);
    const controller = new AbortController();
    rig.onAccepted = (n) => {
      if (n === 25) controller.abort();
    };
    const first = await run({ to }, controller.signal).result;
    expect(first.exitCode).toBe(130);
    expect(first.summary?.notSent).toBeGreaterThan(0);
    rig.onAccepted = () => undefined;
    // Right away: without the previous run's sends in its budget, this run would burst
    // 20 more into the same second and get 429s.
    const second = await run({ to }).result;
    expect(second.exitCode).toBe(0);
    expect(sendsPer(list).every((n) => n === 1)).toBe(true);
    expect(rig.statuses.get(429)).toBeUndefined();
    expect(second.summary?.accepted).toBe(60);
  });

  /** A journal of a previous run that died mid-POST: one POST never left, one was admitted. */
  async function diedMidPost(list: readonly string[]): Promise<string> {
    const [died, posted] = [list[0] ?? '', list[1] ?? ''];
    const journal = BroadcastJournal.open(
      join(rig.dir, 'report.csv.journal.jsonl'),
      { template: 'welcome', language: 'en_US', params: [] },
      rig.clock.now(),
    );
    journal.append({ type: 'intent', phone: died, at: rig.clock.now() });
    journal.append({ type: 'intent', phone: posted, at: rig.clock.now() });
    journal.close();
    const client = new MessagingClient({ baseUrl: rig.url, apiKey: rig.apiKey, clock: rig.clock });
    const admitted = await client.send(buildSendRequest(posted, template('welcome', 'en_US')));
    if (admitted.status !== 'accepted') throw new Error('setup send failed');
    return admitted.messageId;
  }

  it('should reconcile a previous run that died mid-POST: found is accepted, the other unknown', async () => {
    rig = await startRig();
    const list = phones(5);
    const to = writeCsv(list);
    const messageId = await diedMidPost(list);
    const { exitCode, summary } = await run({ to }).result;
    expect(exitCode).toBe(0);
    // The POST that may have left is never sent again by default.
    expect(sendsPer(list)).toEqual([0, 1, 1, 1, 1]);
    expect(summary).toMatchObject({ accepted: 4, unknown: 1 });
    expect(reportLines()[0]).toEqual(['2', list[0], 'unknown', 'not_found_in_history', '']);
    expect(reportLines()[1]).toEqual(['3', list[1], 'accepted', '', messageId]);
  });

  it('should send a died-mid-POST contact absent from history once with --resend-after-absence', async () => {
    rig = await startRig();
    const list = phones(5);
    const to = writeCsv(list);
    const messageId = await diedMidPost(list);
    const { exitCode, summary } = await run({ to, resendAfterAbsence: true }).result;
    expect(exitCode).toBe(0);
    expect(sendsPer(list)).toEqual([1, 1, 1, 1, 1]);
    expect(summary?.accepted).toBe(5);
    expect(reportLines()[1]).toEqual(['3', list[1], 'accepted', '', messageId]);
  });

  /** First POST admitted with its answer lost; the third contact's POST answers 500. */
  function loseTwoAnswers(): void {
    rig.sandbox.control.addFault({ route: 'POST /v1/messages', drop: 'after', count: 1 });
    rig.onAccepted = (n) => {
      if (n === 1)
        rig.sandbox.control.addFault({ route: 'POST /v1/messages', status: 500, count: 1 });
    };
  }

  it('should find an unknown outcome in the history and report an absent one unknown, unsent', async () => {
    rig = await startRig();
    const list = phones(4);
    const to = writeCsv(list);
    loseTwoAnswers();
    const { exitCode, summary } = await run({ to, concurrency: 1 }).result;
    expect(exitCode).toBe(0);
    expect(sendsPer(list)).toEqual([1, 1, 0, 1]);
    expect(summary).toMatchObject({ accepted: 3, unknown: 1 });
    const rows = reportLines();
    const ids = new Set(rig.sandbox.control.sent().map((x) => x.messageId));
    expect(rows[0]?.[2]).toBe('accepted');
    expect(ids.has(rows[0]?.[4] ?? '')).toBe(true);
    expect(rows[2]).toEqual(['4', list[2], 'unknown', 'not_found_in_history', '']);
  });

  it('should send exactly once when a stalled POST is admitted after the history read missed it', async () => {
    // The soak case: the API stalls past the client's deadline, the look-up after the
    // settle time finds nothing, then the stale POST is admitted after all.
    rig = await startRig();
    const list = phones(3);
    const to = writeCsv(list);
    rig.sandbox.control.addFault({ route: 'POST /v1/messages', delayMs: 4_000, count: 1 });
    const first = await run({ to, concurrency: 1 }, undefined, 500).result;
    expect(first.summary).toMatchObject({ accepted: 2, unknown: 1 });
    expect(sendsPer(list)).toEqual([0, 1, 1]);
    await until(() => sendsPer(list)[0] === 1, 20_000);
    // Run again: the late message is found and reported accepted, never sent twice.
    const second = await run({ to }).result;
    expect(sendsPer(list)).toEqual([1, 1, 1]);
    expect(second.summary).toMatchObject({ accepted: 3, unknown: 0 });
  });

  it('should send a proven-absent contact once more with --resend-after-absence', async () => {
    rig = await startRig();
    const list = phones(4);
    const to = writeCsv(list);
    loseTwoAnswers();
    const { exitCode, summary } = await run({ to, concurrency: 1, resendAfterAbsence: true })
      .result;
    expect(exitCode).toBe(0);
    expect(sendsPer(list)).toEqual([1, 1, 1, 1]);
    expect(summary).toMatchObject({ accepted: 4, unknown: 0 });
    const rows = reportLines();
    const ids = new Set(rig.sandbox.control.sent().map((x) => x.messageId));
    expect(rows.every((r) => r[2] === 'accepted' && ids.has(r[4] ?? ''))).toBe(true);
  });

  it('should send a proven-absent contact again only once with the opt-in, then report it unknown', async () => {
    rig = await startRig();
    const list = phones(3);
    const to = writeCsv(list);
    // The first contact's POST and its one resend both answer 500 (nothing admitted).
    rig.sandbox.control.addFault({ route: 'POST /v1/messages', status: 500, count: 1 });
    rig.onAccepted = (n) => {
      if (n === 2)
        rig.sandbox.control.addFault({ route: 'POST /v1/messages', status: 500, count: 1 });
    };
    const { exitCode, summary } = await run({ to, concurrency: 1, resendAfterAbsence: true })
      .result;
    expect(exitCode).toBe(0);
    expect(sendsPer(list)).toEqual([0, 1, 1]);
    expect(summary).toMatchObject({ accepted: 2, unknown: 1 });
    expect(reportLines()[0]).toEqual(['2', list[0], 'unknown', 'not_found_in_history', '']);
    // Run again: looked up again, never sent a third time.
    await run({ to, resendAfterAbsence: true }).result;
    expect(sendsPer(list)).toEqual([0, 1, 1]);
  });

  it('should pause everyone for the time a 429 names, then send that contact once', async () => {
    rig = await startRig();
    const list = phones(10);
    const to = writeCsv(list);
    rig.sandbox.control.addFault({
      route: 'POST /v1/messages',
      status: 429,
      retryAfterSeconds: 7,
      count: 1,
    });
    const before = rig.clock.now();
    const { result, stderr } = run({ to });
    const { exitCode, summary } = await result;
    expect(exitCode).toBe(0);
    expect(sendsPer(list).every((n) => n === 1)).toBe(true);
    expect(summary?.accepted).toBe(10);
    expect(stderr.text).toContain('"pause":{"code":"rate_limited","ms":7000}');
    const first = Math.min(...rig.sandbox.control.sent().map((s) => Date.parse(s.acceptedAt)));
    expect(first - before).toBeGreaterThanOrEqual(7_000);
  });

  it('should skip opted-out contacts as per-contact rejections and go on', async () => {
    rig = await startRig();
    const list = ['+15551230001', '+15551230002', '+15551230003'];
    rig.sandbox.control.setContactState('+15551230002', 'opted_out');
    const { exitCode, summary } = await run({ to: writeCsv(list) }).result;
    expect(exitCode).toBe(0);
    expect(summary).toMatchObject({ accepted: 2, rejected: { contact_opted_out: 1 } });
  });

  it('should stop with a clear message when the template is paused, and stay resumable', async () => {
    rig = await startRig();
    const list = phones(5);
    const to = writeCsv(list);
    const { result, stderr } = run({ to, template: 'on_hold' });
    const { exitCode, end, summary } = await result;
    expect(exitCode).toBe(1);
    expect(end).toMatchObject({ status: 'stopped', code: 'template_not_approved' });
    expect(summary?.notSent).toBe(5);
    expect(stderr.text).toMatch(/stopped: template_not_approved: .*run the same command again/s);
    expect(rig.sandbox.control.sent()).toEqual([]);
    const again = await run({ to, template: 'on_hold' }).result;
    expect(again.exitCode).toBe(1);
  });

  it('should check the list and the parameters on a dry run without sending', async () => {
    rig = await startRig();
    const to = writeCsv(['+15556000001,Ada', '+15556000002,', '+15556000003,Cy'], 'phone,name');
    const { result, stdout, stderr } = run({
      to,
      template: 'greet',
      language: 'en',
      params: ['name'],
      dryRun: true,
    });
    const { exitCode } = await result;
    expect(exitCode).toBe(1);
    expect(stdout.text).toContain(
      'dry run: 2 contacts would get template greet (en); 1 bad rows skipped',
    );
    expect(stderr.text).toContain('contacts.csv:3: column "name" is empty');
    expect(rig.sandbox.control.sent()).toEqual([]);
    expect(existsSync(join(rig.dir, 'report.csv.journal.jsonl'))).toBe(false);
    const real = await run({ to, template: 'greet', language: 'en', params: ['name'] }).result;
    expect(real.summary).toMatchObject({ accepted: 2, skipped: { missing_param: 1 } });
    const sent = rig.sandbox.control.sent()[0]?.request;
    expect(sent).toMatchObject({
      template: { components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }] },
    });
  });
});

describe('switchboard broadcast: parameters the API refuses', () => {
  it('should stop on invalid_message (parameters that do not fit the template)', async () => {
    rig = await startRig();
    const to = writeCsv(['+15556000001,Ada', '+15556000002,Bob'], 'phone,name');
    // `welcome` has no parameters: the sandbox refuses one given.
    const { result, stderr } = run({ to, params: ['name'] });
    const { exitCode, end } = await result;
    expect(exitCode).toBe(1);
    expect(end).toMatchObject({ status: 'stopped', code: 'invalid_message' });
    expect(stderr.text).toContain('check --params');
    expect(rig.sandbox.control.sent()).toEqual([]);
  });
});
