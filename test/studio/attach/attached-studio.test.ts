import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DEV_BOT } from '../../../src/cli/dev-command.js';
import { openAttachedStore } from '../../../src/studio/attach/attach-store.js';
import {
  startAttachedStudio,
  type AttachedStudio,
} from '../../../src/studio/attach/attached-studio.js';
import { READ_ONLY_REFUSAL } from '../../../src/studio/attach/attach-api.js';
import { SqliteStore } from '../../../src/store/sqlite-store.js';
import type { Harness } from '../../engine/harness.js';
import { ADA, GRACE, fingerprint, runSupportDesk } from './attach-fixture.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-attach-'));
const path = join(dir, 'state.db');
let h: Harness;
let studio: AttachedStudio;
let before: string;
let apiRequestsBefore: string;

beforeAll(async () => {
  h = await runSupportDesk(() => new SqliteStore({ path, backgroundCheckpoints: false }));
  before = fingerprint(path);
  apiRequestsBefore = apiActivity(h);
  studio = await startAttachedStudio({
    bot: DEFAULT_DEV_BOT,
    store: await openAttachedStore({ kind: 'sqlite', path }),
    access: { host: '127.0.0.1', token: undefined },
    pollMs: 60_000,
  });
}, 120_000);

afterAll(async () => {
  await studio?.close();
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Everything the API saw that a send or a state change would move. */
const apiActivity = (harness: Harness): string =>
  JSON.stringify({
    sent: harness.sandbox.control.sent().length,
    callbacks: harness.sandbox.control.callbackAttempts().length,
    conversations: harness.sandbox.control
      .conversations()
      .map((c) => [c.id, c.humanOwned, c.lastMessage?.id]),
  });

const call = async (route: string, init: RequestInit = {}) => {
  const res = await fetch(`${studio.url}api${route}`, init);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('switchboard studio --attach (API on a SQLite state file)', () => {
  it('should list the real conversations with their state, newest first', async () => {
    const { status, body } = await call('/state');
    expect(status).toBe(200);
    expect(body['mode']).toBe('attach');
    expect(body['attached']).toMatchObject({
      store: `SQLite state file ${path}`,
      conversations: 2,
      truncated: false,
      unreadable: [],
    });
    const customers = body['customers'] as Record<string, unknown>[];
    expect(customers.map((c) => c['phone'])).toEqual([GRACE, ADA]);
    expect(customers[1]).toMatchObject({ flowId: 'support-desk', humanOwned: false, ended: false });
    expect(customers[1]?.['state']).toEqual(expect.any(String));
  });

  it('should show the live state counts per state of the flow diagram', async () => {
    const { body } = await call('/state');
    const bot = body['bot'] as {
      flows: {
        id: string;
        mermaid: string;
        analytics: Record<string, { current: number; visits: number }>;
      }[];
    };
    const flow = bot.flows.find((f) => f.id === 'support-desk');
    expect(flow?.mermaid).toMatch(/stateDiagram/);
    const customers = body['customers'] as { state: string }[];
    const current = Object.values(flow?.analytics ?? {}).reduce((n, f) => n + f.current, 0);
    expect(current).toBe(2);
    for (const c of customers) expect(flow?.analytics[c.state]?.current).toBeGreaterThan(0);
  });

  it("should show a conversation's timeline and chat from its journal", async () => {
    const { status, body } = await call(`/customers/${encodeURIComponent(ADA)}`);
    expect(status).toBe(200);
    const timeline = body['timeline'] as { kind: string; text: string }[];
    const kinds = timeline.map((e) => e.kind);
    expect(kinds).toContain('inbound');
    expect(kinds).toContain('send');
    expect(kinds).toContain('transition');
    expect(timeline.find((e) => e.kind === 'inbound')?.text).toContain('"hi"');
    const messages = body['messages'] as { kind: string; text?: string }[];
    expect(messages.filter((m) => m.kind === 'inbound').map((m) => m.text)).toEqual([
      'hi',
      'where is my order',
    ]);
    const sent = h.sandbox.control.sent().filter((s) => s.to === ADA);
    expect(
      messages.filter((m) => m.kind === 'outbound').map((m) => (m as unknown as { id: string }).id),
    ).toEqual(sent.map((s) => s.messageId));
    expect(body['doc']).toMatchObject({ flowId: 'support-desk', humanOwned: false });
  });

  it('should refuse every write with a clear message and never change the file or call the API', async () => {
    for (const [route, body] of [
      [`/customers/${encodeURIComponent(ADA)}/send`, { type: 'text', text: 'hi' }],
      [`/customers/${encodeURIComponent(ADA)}/takeover`, {}],
      [`/customers/${encodeURIComponent(ADA)}/reply`, { text: 'hello' }],
      ['/clock/advance', { by: '1h' }],
      ['/customers', {}],
    ] as const) {
      const res = await call(route, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res).toEqual({ status: 405, body: { error: READ_ONLY_REFUSAL } });
    }
    await studio.poll();
    await call('/state');
    await call(`/customers/${encodeURIComponent(GRACE)}`);
    expect(fingerprint(path)).toBe(before);
    expect(apiActivity(h)).toBe(apiRequestsBefore);
  });

  it('should answer 404 for a phone without a conversation', async () => {
    expect(await call('/customers/%2B19999999999')).toEqual({
      status: 404,
      body: { error: 'no conversation of +19999999999 in the attached store' },
    });
  });
});
