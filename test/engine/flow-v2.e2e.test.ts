import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { registerForgetCommand } from '../../src/cli/forget-command.js';
import { loadContactMemory } from '../../src/engine/contact-memory.js';
import { compileFlow, defineFlow } from '../../src/flows/index.js';
import type { Logger } from '../../src/log/logger.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { ADA, startHarness } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-v2-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MIN = 60_000;

const paced = compileFlow(
  defineFlow({
    id: 'paced',
    version: 1,
    start: 'hi',
    contact: { visits: 0 },
    states: {
      hi: {
        branch: [{ if: 'contact.visits == 1', goto: 'again' }, { goto: 'first' }],
      },
      first: {
        set: { 'contact.visits': 1 },
        say: ['Welcome!', { delay: '10m' }, 'Still here for you.'],
        final: true,
      },
      again: { say: 'Welcome back!', final: true },
    },
  }),
);

describe('engine with the flow language v2', () => {
  it('should keep a delay and contact memory across a restart on the SQLite state file', async () => {
    const path = join(dir, 'paced.db');
    const h = await startHarness({ flows: [paced] });
    let store = new SqliteStore({ path, clock: h.clock });
    try {
      await h.restart({ store });
      await h.say(ADA, 'hello');
      await h.bot.idle();
      expect(h.sentTo(ADA)).toEqual(['text:Welcome!']);
      // The process goes away during the pause; it starts again later on the same file.
      await h.bot.stop();
      await store.close();
      h.clock.advance(11 * MIN);
      store = new SqliteStore({ path, clock: h.clock });
      await h.restart({ store });
      await h.bot.runDueTimers();
      await h.bot.idle();
      expect(h.sentTo(ADA)).toEqual(['text:Welcome!', 'text:Still here for you.']);
      expect(await loadContactMemory(store, ADA)).toEqual({ visits: 1 });
      // The next conversation of the contact reads its memory.
      await h.say(ADA, 'hi again');
      await h.bot.idle();
      expect(h.sentTo(ADA).at(-1)).toBe('text:Welcome back!');
    } finally {
      await h.close();
      await store.close();
    }
  });

  it('should erase a contact from the state file with switchboard forget', async () => {
    const path = join(dir, 'forget.db');
    const h = await startHarness({ flows: [paced] });
    const store = new SqliteStore({ path, clock: h.clock });
    await h.restart({ store });
    await h.say(ADA, 'hello');
    await h.bot.idle();
    await h.bot.stop();
    await store.close();
    await h.close();
    let out = '';
    let code: number | undefined;
    const program = registerForgetCommand(new Command('switchboard').exitOverride(), {
      out: (t) => (out += t),
      err: (t) => (out += t),
      setExitCode: (c) => (code = c),
    });
    await program.parseAsync(['node', 'switchboard', 'forget', ADA, '--state', path]);
    // (The CLI reads with the wall clock, long after this test's fake clock: the document
    // already reads as idle-expired there, so it may count 0; it is deleted either way.)
    expect(out).toMatch(
      new RegExp(`^\\${ADA}: contact memory erased, [01] conversations? erased\n$`),
    );
    expect(code).toBeUndefined();
    const after = new SqliteStore({ path, clock: h.clock });
    try {
      expect(await loadContactMemory(after, ADA)).toEqual({});
      const id = h.sandbox.control.conversations().find((c) => c.phoneNumber === ADA)?.id ?? '';
      expect(await after.getConversation(id)).toBeUndefined();
    } finally {
      await after.close();
    }
    await program.parseAsync(['node', 'switchboard', 'forget', '15551230001']);
    expect(code).toBe(1);
  });

  it('should reload flows under a running conversation: a removed state follows migrate', async () => {
    const v1 = compileFlow(
      defineFlow({
        id: 'shop',
        version: 1,
        start: 'askSize',
        states: {
          askSize: { ask: { prompt: 'Size?', var: 'size', goto: 'done' } },
          done: { say: 'Got {{size}}', final: true },
        },
      }),
    );
    const v2 = compileFlow(
      defineFlow({
        id: 'shop',
        version: 2,
        start: 'welcome',
        migrate: { askSize: 'chooseSize' },
        states: {
          welcome: { say: 'Welcome', goto: 'chooseSize' },
          chooseSize: {
            menu: {
              body: 'Pick a size',
              options: [{ id: 's', title: 'Small', set: { size: 'S' }, goto: 'done' }],
            },
          },
          done: { say: 'Got {{size}}', final: true },
        },
      }),
    );
    const h = await startHarness({ flows: [v1] });
    try {
      await h.say(ADA, 'hello');
      await h.bot.idle();
      expect(h.sentTo(ADA)).toEqual(['text:Size?']);
      const refused = h.bot.reloadFlows([v2, v2]);
      expect(refused).toMatchObject({
        status: 'invalid',
        message: expect.stringContaining('duplicate flow id'),
      });
      expect(h.bot.reloadFlows([v2])).toEqual({
        status: 'ok',
        flows: ['shop'],
        entry: 'shop',
        changed: [{ id: 'shop', from: 1, to: 2 }],
      });
      // The conversation waited in askSize, which v2 removed: it continues in chooseSize.
      await h.say(ADA, 'large');
      await h.bot.idle();
      expect(h.sentTo(ADA)).toEqual(['text:Size?', 'button:Pick a size']);
      await h.say(ADA, 'small');
      await h.bot.idle();
      expect(h.sentTo(ADA).at(-1)).toBe('text:Got S');
    } finally {
      await h.close();
    }
  });

  it('should log one error line with flow, state, contact and code when a handler outcome is not routed', async () => {
    const errors: Array<{ message: string; meta: Record<string, unknown> | undefined }> = [];
    const logger: Logger = {
      error: (message, meta) => void errors.push({ message, meta }),
      warn: () => undefined,
      info: () => undefined,
      debug: () => undefined,
      child: () => logger,
    };
    const flow = compileFlow(
      defineFlow({
        id: 'calls',
        version: 1,
        start: 'look',
        onError: 'oops',
        states: {
          look: { call: { handler: 'lookup', outcomes: { found: 'done' } } },
          done: { say: 'Found', final: true },
          oops: { say: 'Sorry ({{error.code}})', final: true },
        },
      }),
    );
    const h = await startHarness({
      flows: [flow],
      logger,
      handlers: { lookup: () => ({ outcome: 'missing' }) },
    });
    try {
      await h.say(ADA, 'hello');
      await h.bot.idle();
      expect(h.sentTo(ADA)).toEqual(['text:Sorry (unknown_outcome)']);
      expect(errors).toEqual([
        {
          message: 'flow took its error path',
          meta: expect.objectContaining({
            flow: 'calls',
            state: 'look',
            contactId: expect.any(String),
            code: 'unknown_outcome',
            target: 'oops',
          }),
        },
      ]);
    } finally {
      await h.close();
    }
  });
});
