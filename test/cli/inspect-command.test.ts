import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerConversationsCommand } from '../../src/cli/conversations-command.js';
import { registerInspectCommand, type InspectIo } from '../../src/cli/inspect-command.js';
import type { ConversationDoc } from '../../src/engine/conversation-doc.js';
import { toStoredDoc } from '../../src/engine/stored-doc.js';
import type { JournalEntry } from '../../src/journal/journal-entry.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';

// The reader judges expiry by the wall clock: documents written "now".
const NOW = Date.now();
const HOUR = 3_600_000;

function doc(
  phone: string,
  more: Partial<ConversationDoc>,
  journal: JournalEntry[],
): ConversationDoc {
  return {
    flowId: 'desk',
    flowVersion: 1,
    epoch: 1,
    snapshot: { value: more.state ?? 'menu', context: {} },
    pending: [],
    lastEffectSeq: 3,
    contact: { phone, id: `ct_${phone}`, name: 'Ada' },
    humanOwned: false,
    heldSends: [],
    state: 'menu',
    vars: { plan: 'gold' },
    ended: false,
    applied: [],
    journal,
    ...more,
  };
}

async function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ out: string; error?: { message: string; exitCode?: number } }> {
  let out = '';
  const io: InspectIo = { out: (t) => (out += t), env, now: () => NOW };
  const program = new Command('switchboard').exitOverride();
  registerInspectCommand(program, io);
  registerConversationsCommand(program, io);
  try {
    await program.parseAsync(['node', 'switchboard', ...args]);
    return { out };
  } catch (error) {
    return { out, error: error as { message: string; exitCode?: number } };
  }
}

describe('switchboard inspect / conversations (SQLite state file)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-inspect-cli-'));
  const path = join(dir, 'state.db');
  const env = { STATE_PATH: path };
  const hash = (): string => createHash('sha256').update(readFileSync(path)).digest('hex');

  beforeAll(async () => {
    const store = new SqliteStore({ path, clock: { now: () => NOW } });
    const put = (id: string, d: ConversationDoc) =>
      store.putConversation(id, toStoredDoc(d, false), 0);
    await put(
      'conv_ok',
      doc('+15550000001', {}, [
        { kind: 'inbound', at: NOW - HOUR, messageId: 'msg_1', type: 'text', text: 'hi' },
        {
          kind: 'transition',
          at: NOW - HOUR,
          from: '',
          to: 'menu',
          event: 'inbound.message',
          flowId: 'desk',
        },
        {
          kind: 'send',
          at: NOW - HOUR,
          seq: 1,
          sendId: 'conv_ok:1:1',
          contentType: 'text',
          text: 'Hello Ada',
          outcome: 'accepted',
          messageId: 'wamid_1',
          status: 'read',
        },
      ]),
    );
    await put(
      'conv_stuck',
      doc('+15550000002', { state: 'trouble' }, [
        {
          kind: 'error',
          at: NOW - 3 * HOUR,
          source: 'flow',
          code: 'handler_failed',
          message: 'lookup failed',
          state: 'lookup',
        },
      ]),
    );
    await put(
      'conv_owned',
      doc('+15550000003', { humanOwned: true }, [
        { kind: 'handoff', at: NOW - 10 * 60_000, change: 'taken', by: 'api' },
      ]),
    );
    await put(
      'conv_waiting',
      doc(
        '+15550000004',
        {
          state: 'lookup',
          lastEffectSeq: 1,
          pending: [
            {
              kind: 'call',
              seq: 2,
              handler: 'lookup',
              requestId: 'r1',
              input: {},
              timeoutMs: 1000,
            },
          ],
        },
        [
          {
            kind: 'transition',
            at: NOW - 2 * HOUR,
            from: 'menu',
            to: 'lookup',
            event: 'inbound.message',
            flowId: 'desk',
          },
        ],
      ),
    );
    await store.putSend({
      id: 'conv_ok:1:1',
      conversationId: 'conv_ok',
      seq: 1,
      state: 'failed',
      code: 'recipient_blocked',
      messageId: 'wamid_1',
      startedAt: NOW - HOUR,
      contentType: 'text',
    });
    await store.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should print the timeline, state, variables and the send record joined, without writing the file', async () => {
    const before = hash();
    const { out, error } = await runCli(['inspect', 'conv_ok'], env);
    expect(error).toBeUndefined();
    expect(out).toContain('state        menu');
    expect(out).toContain('variables    plan="gold"');
    expect(out).toMatch(/inbound\s+msg_1 text "hi"/);
    expect(out).toMatch(
      /send #1\s+text "Hello Ada" accepted wamid_1; status read; record now failed recipient_blocked/,
    );
    expect(hash()).toBe(before);
  });

  it('should find a conversation by phone and print JSON', async () => {
    const { out } = await runCli(['inspect', '+1 (555) 000-0003', '--json'], env);
    const json = JSON.parse(out) as { conversations: { id: string; humanOwned: boolean }[] };
    expect(json.conversations.map((c) => [c.id, c.humanOwned])).toEqual([['conv_owned', true]]);
  });

  it('should say which conversation is missing and where it looked', async () => {
    const { error } = await runCli(['inspect', 'conv_nope'], env);
    expect(error?.exitCode).toBe(1);
    expect(error?.message).toContain(`no conversation "conv_nope" in state file ${path}`);
  });

  it('should name a missing state file', async () => {
    const { error } = await runCli(['inspect', 'conv_ok'], { STATE_PATH: join(dir, 'absent.db') });
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toContain('absent.db: no such state file');
  });

  it.each([
    // conv_waiting: its handler call is unanswered for 2 h (> 10 min): stuck too.
    [['--stuck'], ['conv_waiting', 'conv_stuck']],
    [['--human-owned'], ['conv_owned']],
    [['--waiting'], ['conv_waiting']],
    [['--errors'], ['conv_stuck']],
    [['--in-state', 'lookup'], ['conv_waiting']],
    [
      ['--idle', '90m'],
      ['conv_waiting', 'conv_stuck'],
    ],
    [['--active', '30m'], ['conv_owned']],
  ])('should filter conversations with %j', async (flags, ids) => {
    const { out, error } = await runCli(['conversations', ...flags, '--json'], env);
    expect(error).toBeUndefined();
    const json = JSON.parse(out) as { conversations: { id: string }[]; scanned: number };
    expect(json.conversations.map((c) => c.id)).toEqual(ids);
    expect(json.scanned).toBe(4);
  });

  it('should print a table and refuse a bad duration', async () => {
    const { out } = await runCli(['conversations'], env);
    expect(out).toMatch(
      /conv_stuck\s+\+15550000002\s+trouble\s+bot\s+-\s+error_path\s+3h\s+handler_failed lookup failed/,
    );
    expect(out).toContain('4 conversations');
    const { error } = await runCli(['conversations', '--idle', 'soon'], env);
    expect(error?.exitCode).toBe(2);
    expect(error?.message).toContain('--idle soon');
  });
});
