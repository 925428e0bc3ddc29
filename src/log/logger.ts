import winston from 'winston';
import { redact } from './redact.js';
import { withTraceFields } from './trace-fields.js';

/** The logger every part of switchboard takes through its options. */
export interface Logger {
  error(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  debug(message: string, meta?: Record<string, unknown>): void;
  child(meta: Record<string, unknown>): Logger;
}

export interface LoggerOptions {
  /** `json` for production, `pretty` for a terminal. Default: pretty on a TTY, else json. */
  readonly format?: 'json' | 'pretty';
  readonly level?: 'error' | 'warn' | 'info' | 'debug' | 'silent';
  /** Secret values (API key, signing secrets) to redact wherever they appear. */
  readonly secrets?: readonly string[];
  /** Where to write; default stderr. Tests pass a stream to capture output. */
  readonly stream?: NodeJS.WritableStream;
  /** Fields added to every record. */
  readonly defaultMeta?: Record<string, unknown>;
}

/**
 * Creates a winston logger that redacts the API key, `Authorization` headers and
 * signing secrets in messages and metadata, at any depth.
 * @example
 * const logger = createLogger({ secrets: [apiKey, callbackSecret] });
 * logger.info('send accepted', { route: 'POST /v1/messages', requestId });
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = [...(options.secrets ?? [])];
  const redactFormat = winston.format((info) => {
    const cleaned = redact({ ...info }, secrets) as Record<string | symbol, unknown>;
    for (const key of Object.keys(info)) delete (info as Record<string, unknown>)[key];
    Object.assign(info, cleaned);
    return info;
  });
  const pretty = (options.format ?? (process.stderr.isTTY ? 'pretty' : 'json')) === 'pretty';
  const format = winston.format.combine(
    redactFormat(),
    winston.format.timestamp(),
    pretty
      ? winston.format.printf(({ level, message, timestamp, ...meta }) => {
          const rest = Object.keys(meta).length > 0 ? ` ${JSON.stringify(meta)}` : '';
          return `${String(timestamp)} ${level.padEnd(5)} ${String(message)}${rest}`;
        })
      : winston.format.json(),
  );
  const level = options.level ?? 'info';
  const transport = new winston.transports.Stream({ stream: options.stream ?? process.stderr });
  const logger = winston.createLogger({
    level: level === 'silent' ? 'error' : level,
    silent: level === 'silent',
    format,
    transports: [transport],
    defaultMeta: options.defaultMeta,
  });
  return wrap(logger);
}

/**
 * A record below the level returns before winston builds anything (winston itself makes
 * the record and runs it through its stream before dropping it): the engine logs at
 * debug on its hot path. A record made inside a traced span carries `trace_id` and
 * `span_id` (OpenTelemetry's active context, read at the call).
 */
function wrap(w: winston.Logger): Logger {
  const on = (level: string): boolean => !w.silent && w.isLevelEnabled(level);
  return {
    error: (m, meta) => void (on('error') && w.error(m, withTraceFields(meta))),
    warn: (m, meta) => void (on('warn') && w.warn(m, withTraceFields(meta))),
    info: (m, meta) => void (on('info') && w.info(m, withTraceFields(meta))),
    debug: (m, meta) => void (on('debug') && w.debug(m, withTraceFields(meta))),
    child: (meta) => wrap(w.child(meta)),
  };
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = {
  error: () => undefined,
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
  child: () => silentLogger,
};
