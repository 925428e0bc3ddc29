import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { loadBot } from '../bot/load-bot.js';
import { intentsOf } from '../bot/resolve-understanding.js';
import { DEFAULT_THRESHOLD } from '../flows/understand-runtime.js';
import { createBuiltinUnderstander } from '../understand/builtin/index.js';
import { evaluate } from '../understand/eval/evaluate.js';
import { formatEvalReport } from '../understand/eval/format-report.js';
import { LabelledCsvError, parseLabelledCsv } from '../understand/eval/labelled-csv.js';
import { createLlmUnderstander } from '../understand/llm/index.js';
import { LlmConfigError, llmOptionsFromEnv } from '../understand/llm/options-from-env.js';
import { isTimeZone } from '../understand/setup.js';
import type { Understander } from '../understand/types.js';

/** Where the eval command writes and what it reads (injectable for tests). */
export interface EvalCommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly setExitCode: (code: number) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

const defaultIo: EvalCommandIo = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
  setExitCode: (code) => {
    process.exitCode = code;
  },
  env: process.env,
};

interface EvalOptions {
  readonly understander?: string;
  readonly threshold?: string;
  readonly misses?: string;
  readonly now?: string;
  readonly timezone?: string;
}

/** Thrown for a bad argument; the message is printed as is (exit 2). */
class EvalUsageError extends Error {}

function parseUnit(name: string, value: string | undefined, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (
    value.trim() === '' ||
    !Number.isFinite(n) ||
    (integer ? !Number.isInteger(n) || n < 0 : n < 0 || n > 1)
  )
    throw new EvalUsageError(
      `--${name} ${value}: must be ${integer ? 'a whole number ≥ 0' : 'a number from 0 to 1'}`,
    );
  return n;
}

/** An ISO 8601 date, or a date and time with its offset (`Z`, `+01:00`). */
const ISO_NOW =
  /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** Noon UTC: a date alone is that calendar day in every timezone from UTC-11 to UTC+11. */
const NOON_UTC = 'T12:00:00Z';

function parseNow(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const iso = value.trim();
  const ms =
    ISO_NOW.test(iso) && isCalendarDate(iso)
      ? Date.parse(iso.length === 10 ? iso + NOON_UTC : iso)
      : NaN;
  if (!Number.isFinite(ms))
    throw new EvalUsageError(
      `--now ${value}: must be an ISO 8601 date (2026-11-28, read as noon UTC) or a date and time with an offset (2026-11-28T09:30:00Z, 2026-11-28T10:30:00+01:00)`,
    );
  return ms;
}

/** Whether the date an ISO string starts with exists (Date.parse rolls 2026-02-30 over to March). */
function isCalendarDate(iso: string): boolean {
  const [y, m, d] = iso.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function parseTimezone(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isTimeZone(value))
    throw new EvalUsageError(
      `--timezone ${value}: not an IANA timezone this Node knows (Europe/Madrid, America/New_York, UTC)`,
    );
  return value;
}

/**
 * Adds `eval <bot> <labelled.csv>`: runs the bot's understander (or `--understander
 * builtin|llm`) over labelled messages against the intents of the bot's flows and prints
 * the report (accuracy per language, out of scope, confusion, misses, slowest). Exit 2
 * when the bot, the CSV or an option is wrong.
 * @example
 * registerEvalCommand(program);
 * // switchboard eval examples/pizza-order examples/pizza-order/labelled.csv --threshold 0.6
 */
export function registerEvalCommand(program: Command, io: EvalCommandIo = defaultIo): Command {
  program
    .command('eval')
    .description("Measure a bot's understanding on labelled messages (a CSV)")
    .argument('<bot>', 'a bot: a directory, a bot module or a flow file')
    .argument('<csv>', 'labelled messages: header text,locale,intent,slots')
    .option(
      '--understander <name>',
      "builtin or llm (LLM_BASE_URL, LLM_MODEL); default: the bot's own",
    )
    .option('--threshold <n>', "lowest confidence acted on, 0..1 (default: the bot's, else 0.6)")
    .option('--misses <n>', 'how many misses to list (default 20)')
    .option(
      '--now <iso>',
      'the clock relative and year-less dates resolve against: 2026-11-28 (noon UTC) or 2026-11-28T09:30:00Z (default: the real clock)',
    )
    .option(
      '--timezone <iana>',
      "timezone of dates and times in the messages (default: the bot's, else UTC)",
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ switchboard eval examples/pizza-order examples/pizza-order/labelled.csv\n  $ switchboard eval examples/pizza-order labelled.csv --now 2026-11-28T12:00:00Z --timezone Europe/Madrid\n  $ LLM_BASE_URL=http://127.0.0.1:11434/v1 LLM_MODEL=llama3.1 switchboard eval examples/pizza-order labelled.csv --understander llm\n\nCSV: intent empty or out_of_scope for a message no intent should take, handoff for a request for a person; slots as name=value;name=value.',
    )
    .action(async (botPath: string, csvPath: string, opts: EvalOptions) => {
      try {
        io.out(await runEval(botPath, csvPath, opts, io.env));
        io.setExitCode(0);
      } catch (error) {
        if (!(error instanceof EvalUsageError)) throw error;
        io.err(`switchboard eval: ${error.message}\n`);
        io.setExitCode(2);
      }
    });
  return program;
}

async function runEval(
  botPath: string,
  csvPath: string,
  opts: EvalOptions,
  env: EvalCommandIo['env'],
): Promise<string> {
  const threshold = parseUnit('threshold', opts.threshold, false);
  const misses = parseUnit('misses', opts.misses, true) ?? 20;
  const now = parseNow(opts.now);
  const timezone = parseTimezone(opts.timezone);
  const loaded = await loadBot(botPath);
  if (loaded.status === 'error') throw new EvalUsageError(loaded.message);
  const intents = intentsOf(loaded.bot.flows);
  if (intents.length === 0)
    throw new EvalUsageError(`${botPath}: the bot's flows declare no intents`);
  let text: string;
  try {
    text = await readFile(csvPath, 'utf8');
  } catch (error) {
    throw new EvalUsageError(
      `cannot read ${csvPath}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let rows;
  try {
    rows = parseLabelledCsv(text);
  } catch (error) {
    if (error instanceof LabelledCsvError) throw new EvalUsageError(`${csvPath}: ${error.message}`);
    throw error;
  }
  const understanding = loaded.bot.understanding;
  const understander = chooseUnderstander(opts.understander, understanding?.understander, env);
  const report = await evaluate(understander, intents, rows, {
    threshold: threshold ?? understanding?.threshold ?? DEFAULT_THRESHOLD,
    timezone: timezone ?? understanding?.timezone ?? 'UTC',
    ...(now === undefined ? {} : { now }),
    // The first flow's that has them: the one whose intents come first (intentsOf).
    ...outOfScopeField(loaded.bot.flows.find((f) => f.outOfScope !== undefined)?.outOfScope),
  });
  return formatEvalReport(report, { misses });
}

function outOfScopeField(outOfScope: Readonly<Record<string, readonly string[]>> | undefined): {
  outOfScope?: Readonly<Record<string, readonly string[]>>;
} {
  return outOfScope === undefined ? {} : { outOfScope };
}

function chooseUnderstander(
  name: string | undefined,
  own: Understander | undefined,
  env: EvalCommandIo['env'],
): Understander {
  if (name === undefined) return own ?? createBuiltinUnderstander();
  if (name === 'builtin') return createBuiltinUnderstander();
  if (name === 'llm') {
    try {
      return createLlmUnderstander(llmOptionsFromEnv(env));
    } catch (error) {
      if (error instanceof LlmConfigError)
        throw new EvalUsageError(`--understander llm: ${error.message}`);
      throw error;
    }
  }
  throw new EvalUsageError(`--understander ${name}: must be builtin or llm`);
}
