import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { MessagingClient } from '../../src/api/client.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { cliEnv } from '../cli-env.js';
import { startSupportDeskWorker, type SupportDeskWorker } from '../support-desk-worker.js';
import { waitUntil } from '../wait-until.js';

const run = promisify(execFile);
const GREETING = 2; // support-desk: the welcome text and its menu

type Worker = SupportDeskWorker;

const startWorker = (env: Record<string, string>): Promise<Worker> =>
  startSupportDeskWorker(env, '300ms');

async function cli(args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, ['bin/switchboard.js', ...args], {
    env: cliEnv(env),
  });
  return stdout;
}

interface JournalJson {
  kind: string;
  messageId?: string;
  outcome?: string;
  result?: string;
  change?: string;
  ignored?: string;
  record?: { state: string; messageId?: string };
}

/** The message ids the journal says were admitted by the API for this conversation. */
function admittedIds(journal: JournalJson[]): Set<string> {
  const ids = new Set<string>();
  for (const e of journal) {
    if (
      e.kind === 'send' &&
      (e.outcome === 'accepted' || e.outcome === 'already_done') &&
      e.messageId
    )
      ids.add(e.messageId);
    if (e.kind === 'send' && e.record?.messageId) ids.add(e.record.messageId);
    if (e.kind === 'reconcile' && e.messageId && (e.result === 'found' || e.result === 'resent'))
      ids.add(e.messageId);
  }
  return ids;
}

describe('switchboard inspect after kill -9 (issue 32 check)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-inspect-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should show every inbound message, every admitted send, the unknown one reconciled and the handoff, as the API log has them', async () => {
    const sandbox = createSandbox();
    const server = await sandbox.listen(0, '127.0.0.1');
    const key = sandbox.config.keys[0]!.key;
    const statePath = join(dir, 'state.db');
    const env = {
      MESSAGING_API_BASE_URL: server.url,
      MESSAGING_API_KEY: key,
      STATE_PATH: statePath,
    };
    const client = new MessagingClient({ baseUrl: server.url, apiKey: key });
    const phones = ['+15558800001', '+15558800002', '+15558800003', '+15558800004'];
    const sentTo = (to: string): string[] =>
      sandbox.control
        .sent()
        .filter((s) => s.to === to)
        .map((s) => s.messageId);
    const conversationOf = (phone: string): string =>
      sandbox.control.conversations().find((c) => c.phoneNumber === phone)?.id ?? '';
    let worker: Worker | undefined;
    try {
      worker = await startWorker(env);
      sandbox.control.injectInbound({ from: phones[0]!, type: 'text', text: 'hi' });
      expect(await waitUntil(() => sentTo(phones[0]!).length >= GREETING, 30_000)).toBe(true);
      // An admitted send whose answer is lost: its outcome is unknown, then reconciled.
      sandbox.control.addFault({ route: 'POST /v1/messages', drop: 'after' });
      sandbox.control.injectInbound({ from: phones[1]!, type: 'text', text: 'hi' });
      expect(await waitUntil(() => sentTo(phones[1]!).length >= GREETING, 30_000)).toBe(true);
      // Contacts writing while the bot is killed with -9 and restarted.
      sandbox.control.injectInbound({ from: phones[2]!, type: 'text', text: 'hi' });
      sandbox.control.injectInbound({ from: phones[3]!, type: 'text', text: 'hello' });
      await new Promise((resolve) => setTimeout(resolve, 400));
      await worker.kill9();
      worker = await startWorker(env);
      for (const p of phones.slice(2))
        expect(await waitUntil(() => sentTo(p).length >= GREETING, 30_000)).toBe(true);
      // A person takes contact 0 over; the contact writes: recorded, never answered.
      sandbox.control.takeOver(conversationOf(phones[0]!));
      sandbox.control.injectInbound({ from: phones[0]!, type: 'text', text: 'still there?' });
      const reconciled = async (): Promise<boolean> => {
        const out = await cli(['inspect', phones[1]!, '--json'], env).catch(() => '');
        return out.includes('"result": "found"');
      };
      expect(await waitUntil(reconciled, 30_000, 300)).toBe(true);
      const owned = async (): Promise<boolean> => {
        const out = await cli(['inspect', conversationOf(phones[0]!), '--json'], env).catch(
          () => '',
        );
        return out.includes('"ignored": "human_owned"');
      };
      expect(await waitUntil(owned, 30_000, 300)).toBe(true);
      await worker.kill9();
      worker = undefined;

      // After kill -9: the timeline of each contact matches the API's log.
      for (const phone of phones) {
        const out = JSON.parse(await cli(['inspect', phone, '--json'], env)) as {
          conversations: { id: string; humanOwned: boolean; journal: JournalJson[] }[];
        };
        expect(out.conversations).toHaveLength(1);
        const [view] = out.conversations;
        const history = await client.listMessages(view!.id, { limit: 100 });
        const inbound = history.items
          .filter((m) => m.direction === 'inbound')
          .map((m) => m.id)
          .sort();
        const journaledInbound = view!.journal
          .filter((e) => e.kind === 'inbound')
          .map((e) => e.messageId)
          .sort();
        expect(journaledInbound).toEqual(inbound);
        expect([...admittedIds(view!.journal)].sort()).toEqual([...sentTo(phone)].sort());
      }
      const unknown = JSON.parse(await cli(['inspect', phones[1]!, '--json'], env)) as {
        conversations: { journal: JournalJson[] }[];
      };
      const journal1 = unknown.conversations[0]!.journal;
      expect(journal1.some((e) => e.kind === 'send' && e.outcome === 'unknown')).toBe(true);
      expect(journal1.some((e) => e.kind === 'reconcile' && e.result === 'found')).toBe(true);
      const text = await cli(['inspect', phones[0]!], env);
      expect(text).toContain('owned by     a person');
      expect(text).toMatch(/handoff\s+a person owns the conversation/);
      const list = JSON.parse(await cli(['conversations', '--human-owned', '--json'], env)) as {
        conversations: { phone: string }[];
        scanned: number;
      };
      expect(list.conversations.map((c) => c.phone)).toEqual([phones[0]]);
      expect(list.scanned).toBe(4);
    } finally {
      await worker?.kill9();
      await sandbox.close();
    }
  }, 180_000);
});
