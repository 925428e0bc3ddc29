import type { Command } from 'commander';
import { RedisLimiter } from '../api/redis-limiter.js';
import { broadcast, type BroadcastConfig, type SharedBudget } from '../broadcast/broadcast.js';
import { ContactListError } from '../broadcast/csv-reader.js';
import { JournalError } from '../broadcast/journal.js';
import { createLogger } from '../log/logger.js';
import { connectRedis } from '../store/redis-connection.js';
import type { RedisClient } from '../store/redis-script.js';
import { CliError } from './run-command.js';

import { formatDeploymentIssue, loadDeploymentFile } from '../deploy/load-deployment-file.js';

/** Flags of `switchboard broadcast`. */
export interface BroadcastFlags {
  readonly template: string;
  readonly language: string;
  readonly to: string;
  readonly params?: string;
  readonly report?: string;
  readonly journal?: string;
  readonly dryRun?: boolean;
  readonly concurrency?: string;
  readonly resendAfterAbsence?: boolean;
  readonly deployment?: string;
  readonly number?: string;
}

/**
 * Adds `switchboard broadcast --template <name> --language <code> --to <contacts.csv>
 * [--params <column,…>] [--report <out.csv>] [--dry-run]`: sends an approved template
 * to a contact list at the full send budget, resumable after any interruption.
 */
export function registerBroadcastCommand(program: Command): Command {
  return program
    .command('broadcast')
    .description('Send an approved template to every contact of a CSV list (resumable)')
    .requiredOption('--template <name>', 'approved template name')
    .requiredOption('--language <code>', 'template language code, e.g. en_US')
    .requiredOption('--to <contacts.csv>', 'CSV with a header and a "phone" column (E.164)')
    .option(
      '--params <columns>',
      'CSV columns holding the body text parameters, in order, e.g. first_name,date',
    )
    .option(
      '--report <out.csv>',
      'write the outcome of every row here (line, phone, outcome, error_code, message_id)',
    )
    .option('--journal <file>', 'journal file (default: <report>.journal.jsonl, or beside the CSV)')
    .option('--dry-run', 'check the CSV and the template parameters; send nothing')
    .option('--concurrency <n>', 'sends in flight at once (default 8)')
    .option(
      '--resend-after-absence',
      'send a contact whose outcome is unknown once more when the history still lacks it 25 s later (risks a duplicate; default: never)',
    )
    .option(
      '--deployment <file>',
      'a deployment file: send from one of its numbers (with --number)',
    )
    .option(
      '--number <id>',
      'the number of --deployment to send from (its key comes from its apiKeyEnv)',
    )
    .addHelpText(
      'after',
      `
Environment:
  MESSAGING_API_BASE_URL  API base URL (required unless --dry-run)
  MESSAGING_API_KEY       API key of the business number (required unless --dry-run)
  LOG_LEVEL               error | warn (default) | info | debug | silent

Sends at the budget of spec part 8 (20/s, 600/min per key and number, 1,200/min per
workspace) and never over it; a 429, backlog_full or temporarily_unavailable pauses the
whole run for the time the API names. Bad rows are reported with their line and skipped.
Interrupted (Ctrl-C, kill -9, crash)? Run the same command again: the journal records
each send's intent before its POST and its outcome after, so nobody gets it twice;
sends whose outcome is unknown are looked up in the conversation history, never replayed
(not found: reported unknown; --resend-after-absence sends them once more, at the risk of
a duplicate when the API admits a stalled POST late).
Stops by itself when the template is unknown or not approved, the key is refused, or
quality blocks sending (exit code 1; fix it and run again).

Exit codes: 0 done, 1 stopped by the API (or a dry run with bad rows), 2 bad input, 130 interrupted.

Examples:
  $ switchboard broadcast --template welcome --language en_US --to contacts.csv --report out.csv
  $ switchboard broadcast --template order_ready --language en --to orders.csv --params name,order --dry-run`,
    )
    .action(async (flags: BroadcastFlags) => {
      const { env, number } = await numberEnv(flags, process.env);
      const config = parseBroadcastFlags(flags, env);
      const shared =
        number === undefined || config.dryRun ? undefined : await sharedBudget(number, env);
      const controller = new AbortController();
      const interrupt = (): void => {
        if (controller.signal.aborted) process.exit(130);
        process.stderr.write('\nstopping after the sends in flight (Ctrl-C again to quit now)\n');
        controller.abort();
      };
      process.on('SIGINT', interrupt);
      process.on('SIGTERM', interrupt);
      const level = process.env['LOG_LEVEL'] ?? 'warn';
      try {
        const result = await broadcast(config, {
          stdout: process.stdout,
          stderr: process.stderr,
          tty: process.stderr.isTTY === true,
          signal: controller.signal,
          ...(shared === undefined ? {} : { budget: shared.budget }),
          logger: createLogger({
            level: ['error', 'warn', 'info', 'debug', 'silent'].includes(level)
              ? (level as 'warn')
              : 'warn',
            secrets: [config.apiKey],
          }),
        });
        process.exitCode = result.exitCode;
      } catch (error) {
        if (error instanceof ContactListError || error instanceof JournalError)
          throw new CliError(`switchboard broadcast: ${error.message}`, 2, { cause: error });
        throw error;
      } finally {
        process.off('SIGINT', interrupt);
        process.off('SIGTERM', interrupt);
        shared?.redis.disconnect();
      }
    });
}

/** The configuration of parsed flags; a bad value throws a {@link CliError} (exit 2). */
export function parseBroadcastFlags(
  flags: BroadcastFlags,
  env: Readonly<Record<string, string | undefined>>,
): BroadcastConfig {
  const fail = (message: string): never => {
    throw new CliError(`switchboard broadcast: ${message}`, 2);
  };
  const dryRun = flags.dryRun === true;
  const baseUrl = env['MESSAGING_API_BASE_URL']?.trim() ?? '';
  const apiKey = env['MESSAGING_API_KEY']?.trim() ?? '';
  if (!dryRun) {
    if (baseUrl === '')
      fail(
        'MESSAGING_API_BASE_URL is not set; set it to the API base URL, e.g. https://api.example.com',
      );
    if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))
      fail(`MESSAGING_API_BASE_URL "${baseUrl}" is not an http(s) URL`);
    if (apiKey === '')
      fail('MESSAGING_API_KEY is not set; set it to the API key of your business number');
  }
  const params = (flags.params ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  let concurrency: number | undefined;
  if (flags.concurrency !== undefined) {
    concurrency = Number(flags.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
      fail(`--concurrency "${flags.concurrency}" must be an integer 1..64`);
  }
  return {
    baseUrl,
    apiKey,
    template: flags.template,
    language: flags.language,
    to: flags.to,
    params,
    dryRun,
    ...(flags.report === undefined ? {} : { report: flags.report }),
    ...(flags.journal === undefined ? {} : { journal: flags.journal }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(flags.resendAfterAbsence === true ? { resendAfterAbsence: true } : {}),
  };
}

/**
 * With `--deployment <file> --number <id>`: the environment with `MESSAGING_API_KEY` set
 * from the number's `apiKeyEnv`; without them, `env` as it is.
 */
async function numberEnv(
  flags: BroadcastFlags,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{
  env: Readonly<Record<string, string | undefined>>;
  number?: { readonly id: string; readonly workspace: string };
}> {
  const fail = (message: string): never => {
    throw new CliError(`switchboard broadcast: ${message}`, 2);
  };
  if (flags.deployment === undefined && flags.number === undefined) return { env };
  if (flags.deployment === undefined || flags.number === undefined)
    return fail('--deployment <file> and --number <id> go together: name the file and its number');
  const loaded = await loadDeploymentFile(flags.deployment);
  if (loaded.status === 'error') return fail(loaded.issues.map(formatDeploymentIssue).join('\n'));
  const ids = loaded.deployment.numbers.map((n) => n.id);
  const number = loaded.deployment.numbers.find((n) => n.id === flags.number);
  if (number === undefined)
    return fail(
      `--number "${flags.number}" is not in ${flags.deployment}; its numbers: ${ids.join(', ')}`,
    );
  const key = env[number.apiKeyEnv]?.trim();
  if (key === undefined || key === '')
    return fail(`${number.apiKeyEnv} is not set (the API key of number ${number.id})`);
  return {
    env: { ...env, MESSAGING_API_KEY: key },
    number: { id: number.id, workspace: number.workspace },
  };
}

/**
 * The running deployment's workspace budget, when it lives in Redis (`REDIS_URL`, and
 * the workers' `REDIS_PREFIX`): the broadcast's sends then count in the budget every worker
 * of the deployment takes from, so a broadcast during traffic makes no 429. Without
 * `REDIS_URL` the broadcast has a budget of its own, which a running deployment does not
 * see (said on stderr).
 */
async function sharedBudget(
  number: { readonly id: string; readonly workspace: string },
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ budget: SharedBudget; redis: RedisClient } | undefined> {
  const url = env['REDIS_URL']?.trim();
  if (url === undefined || url === '') {
    process.stderr.write(
      'note: REDIS_URL is not set, so this broadcast counts its sends in a budget of its own: a deployment running meanwhile does not see them (set REDIS_URL and REDIS_PREFIX as its workers have them)\n',
    );
    return undefined;
  }
  const cluster = env['REDIS_CLUSTER'] === '1' || env['REDIS_CLUSTER'] === 'true';
  const redis = await connectRedis(url, { cluster }).catch((error: unknown) => {
    throw new CliError(
      `switchboard broadcast: ${error instanceof Error ? error.message : String(error)}`,
      2,
      { cause: error },
    );
  });
  const prefix = env['REDIS_PREFIX'] ?? 'switchboard:';
  return {
    redis,
    budget: {
      limiter: new RedisLimiter({ redis, prefix }),
      identity: { numberId: number.id, workspaceId: number.workspace },
    },
  };
}
