import { Writable } from 'node:stream';
import { z } from 'zod';
import { createLogger, type Logger } from '../log/logger.js';

/** The levels of switchboard's log lines, most severe first. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * One captured log line, as the production logger would write it (after redaction of
 * the API key and secrets): its level, its message and its metadata fields
 * (`conversationId`, `flow`, `state`, `code`…) at the top level.
 * @example
 * { level: 'error', message: 'flow took its error path', flow: 'orders', state: 'lookup', code: 'error' }
 */
export interface LogEntry {
  readonly level: LogLevel;
  readonly message: string;
  readonly [meta: string]: unknown;
}

/** Which captured lines {@link CapturedLogs.entries} returns (all of them by default). */
export interface LogFilter {
  /** Only lines of this level (or of one of these levels). */
  readonly level?: LogLevel | readonly LogLevel[];
  /** Only lines whose message contains this text, or matches this pattern. */
  readonly message?: string | RegExp;
}

/** A logger that keeps every line it is given, and the lines it kept. */
export interface CapturedLogs {
  /** Give this to the bot. */
  readonly logger: Logger;
  /** The captured lines, oldest first, optionally filtered. */
  entries(filter?: LogFilter): LogEntry[];
}

/** A record as winston hands it to an object-mode stream: level and message, then meta. */
const Record = z.looseObject({ level: z.enum(LOG_LEVELS), message: z.string() });

/**
 * Captures log lines through the production logger (winston, with its redaction) into
 * memory: the test kit's `chat.logs()`. `also` receives every line as well (e.g. a
 * pretty logger to watch a test run).
 * @example
 * const logs = captureLogs({ level: 'info' });
 * const bot = createBot({ ...options, logger: logs.logger });
 * expect(logs.entries({ level: 'error' })).toHaveLength(0);
 */
export function captureLogs(options: { level?: LogLevel; also?: Logger } = {}): CapturedLogs {
  const kept: LogEntry[] = [];
  const stream = new Writable({
    objectMode: true,
    write(record: unknown, _encoding, done) {
      const parsed = Record.safeParse(record);
      if (parsed.success) {
        // The timestamp is the machine's, not the test's fake clock: left out.
        const { timestamp: _timestamp, ...entry } = parsed.data;
        kept.push(entry);
      }
      done();
    },
  });
  const captured = createLogger({ format: 'json', level: options.level ?? 'debug', stream });
  const logger = options.also === undefined ? captured : tee(captured, options.also);
  return {
    logger,
    entries(filter = {}) {
      const levels = filter.level === undefined ? undefined : [filter.level].flat();
      const wanted = filter.message;
      return kept.filter(
        (e) =>
          (levels === undefined || levels.includes(e.level)) &&
          (wanted === undefined ||
            (typeof wanted === 'string' ? e.message.includes(wanted) : wanted.test(e.message))),
      );
    },
  };
}

/** A logger writing every line to both `a` and `b`. */
function tee(a: Logger, b: Logger): Logger {
  return {
    error: (m, meta) => (a.error(m, meta), b.error(m, meta)),
    warn: (m, meta) => (a.warn(m, meta), b.warn(m, meta)),
    info: (m, meta) => (a.info(m, meta), b.info(m, meta)),
    debug: (m, meta) => (a.debug(m, meta), b.debug(m, meta)),
    child: (meta) => tee(a.child(meta), b.child(meta)),
  };
}
