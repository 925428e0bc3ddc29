import { join } from 'node:path';
import type { Command } from 'commander';
import { forgetContact } from '../engine/contact-memory.js';
import { RedisStore } from '../store/redis-store.js';
import { connectRedis } from '../store/redis-connection.js';
import type { RedisClient } from '../store/redis-script.js';
import { SqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/store.js';

/** Where the forget command writes (injectable for tests). */
export interface ForgetCommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly setExitCode: (code: number) => void;
}

const defaultIo: ForgetCommandIo = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  setExitCode: (code) => {
    process.exitCode = code;
  },
};

const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * Adds `forget`: erasure of contacts (their contact memory, conversation documents and
 * waiting events) in the store `run` uses: the SQLite state file given by `--state`, else
 * Redis when `--redis`/`REDIS_URL` is set, else the state file of `STATE_PATH` (default
 * `.switchboard/state.db`).
 * @example
 * // switchboard forget +15551230001 --state .switchboard/state.db
 */
export function registerForgetCommand(program: Command, io: ForgetCommandIo = defaultIo): Command {
  program
    .command('forget')
    .description('Erase contacts: their contact memory and conversations (an erasure request)')
    .argument('<phones...>', 'E.164 phone numbers, e.g. +15551230001')
    .option(
      '--state <file>',
      'the SQLite state file of `run` (default: STATE_PATH or .switchboard/state.db)',
    )
    .option('--redis <url>', 'the Redis of `run` (default: REDIS_URL)')
    .option('--redis-prefix <prefix>', 'key prefix (default: REDIS_PREFIX or switchboard:)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard forget +15551230001\n  $ REDIS_URL=redis://127.0.0.1:6379 switchboard forget +15551230001 +15551230002\n\nA running bot can do the same with bot.forget(phone). With SQLite, stop `run` first (one process per state file).',
    )
    .action(
      async (phones: string[], opts: { state?: string; redis?: string; redisPrefix?: string }) => {
        const bad = phones.filter((p) => !E164.test(p));
        if (bad.length > 0) {
          io.err(
            `not an E.164 phone number: ${bad.join(', ')} (write it as +<country code><number>)\n`,
          );
          io.setExitCode(1);
          return;
        }
        if (opts.redis !== undefined && opts.state !== undefined) {
          io.err('--redis and --state exclude each other: choose the store `run` uses\n');
          io.setExitCode(2);
          return;
        }
        // An explicit --state wins over REDIS_URL from the environment.
        const redisUrl =
          opts.redis ?? (opts.state === undefined ? process.env['REDIS_URL'] : undefined);
        let redis: RedisClient | undefined;
        let store: Store;
        try {
          if (redisUrl !== undefined && redisUrl !== '') {
            // Errors are reported once by the rejection below, not per reconnect attempt.
            redis = await connectRedis(redisUrl, {
              cluster: ['1', 'true'].includes(process.env['REDIS_CLUSTER'] ?? ''),
              maxRetriesPerRequest: 2,
              onError: () => undefined,
            });
            store = new RedisStore({
              redis,
              prefix: opts.redisPrefix ?? process.env['REDIS_PREFIX'] ?? 'switchboard:',
            });
          } else {
            const path =
              opts.state ?? process.env['STATE_PATH'] ?? join('.switchboard', 'state.db');
            store = new SqliteStore({ path });
          }
        } catch (error) {
          redis?.disconnect();
          io.err(
            `cannot open the store: ${error instanceof Error ? error.message : String(error)}\n`,
          );
          io.setExitCode(1);
          return;
        }
        try {
          for (const phone of phones) {
            const r = await forgetContact(store, phone);
            io.out(
              `${phone}: contact memory ${r.memory ? 'erased' : 'was empty'}, ${r.conversations.length} conversation${r.conversations.length === 1 ? '' : 's'} erased\n`,
            );
          }
        } finally {
          await store.close();
          redis?.disconnect();
        }
      },
    );
  return program;
}
