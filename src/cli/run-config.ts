import { parseDuration } from '../core/duration.js';

/** Production configuration of `switchboard run`, from flags and the environment. */
export interface RunConfig {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Poll interval in ms, when polling. */
  readonly pollMs: number | undefined;
  /** Callback port, when receiving callbacks. */
  readonly port: number | undefined;
  /** Port of a server with only `/healthz`, `/readyz` and `/metrics`, when set. */
  readonly metricsPort: number | undefined;
  readonly host: string;
  readonly callbackPath: string;
  readonly callbackSecret: string | undefined;
  readonly redisUrl: string | undefined;
  readonly redisPrefix: string;
  readonly logLevel: 'error' | 'warn' | 'info' | 'debug' | 'silent';
  readonly logFormat: 'json' | 'pretty' | undefined;
}

/** Flags of `switchboard run`. */
export interface RunFlags {
  readonly poll?: string;
  readonly port?: string;
  readonly metricsPort?: string;
  readonly host?: string;
  readonly path?: string;
}

/** Outcome of {@link parseRunConfig}: a config, or one line saying what to fix. */
export type RunConfigResult =
  | { readonly status: 'ok'; readonly config: RunConfig }
  | { readonly status: 'invalid'; readonly message: string };

const LEVELS = ['error', 'warn', 'info', 'debug', 'silent'] as const;
const FORMATS = ['json', 'pretty'] as const;

/**
 * Reads `MESSAGING_API_BASE_URL`, `MESSAGING_API_KEY`, `CALLBACK_SECRET`, `REDIS_URL`,
 * `REDIS_PREFIX`, `LOG_LEVEL`, `LOG_FORMAT` and the flags; the first problem found is
 * reported on one line.
 */
export function parseRunConfig(
  flags: RunFlags,
  env: Readonly<Record<string, string | undefined>>,
): RunConfigResult {
  const invalid = (message: string): RunConfigResult => ({ status: 'invalid', message });
  const value = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const baseUrl = value('MESSAGING_API_BASE_URL');
  if (baseUrl === undefined)
    return invalid(
      'MESSAGING_API_BASE_URL is not set; set it to the API base URL, e.g. https://api.example.com',
    );
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    return invalid(`MESSAGING_API_BASE_URL "${baseUrl}" is not an http(s) URL`);
  }
  const apiKey = value('MESSAGING_API_KEY');
  if (apiKey === undefined)
    return invalid('MESSAGING_API_KEY is not set; set it to the API key of your business number');
  if (flags.poll === undefined && flags.port === undefined) {
    return invalid(
      'nothing to receive messages with: pass --poll <interval> (e.g. --poll 2s) and/or --port <n> for callbacks',
    );
  }
  let pollMs: number | undefined;
  if (flags.poll !== undefined) {
    const d = parseDuration(flags.poll);
    if (d.status === 'invalid' || d.ms < 100)
      return invalid(`--poll "${flags.poll}" must be a duration of at least 100ms, e.g. 2s`);
    pollMs = d.ms;
  }
  const portOf = (flag: string, raw: string | undefined): number | undefined | string => {
    if (raw === undefined) return undefined;
    const n = Number(raw);
    return /^\d+$/.test(raw) && n <= 65_535 ? n : `${flag} "${raw}" must be an integer 0..65535`;
  };
  const port = portOf('--port', flags.port);
  if (typeof port === 'string') return invalid(port);
  const metricsPort = portOf('--metrics-port', flags.metricsPort);
  if (typeof metricsPort === 'string') return invalid(metricsPort);
  const callbackSecret = value('CALLBACK_SECRET');
  if (port !== undefined && callbackSecret === undefined)
    return invalid(
      'CALLBACK_SECRET is not set; callbacks (--port) need the signing secret shared with the API',
    );
  const logLevel = value('LOG_LEVEL') ?? 'info';
  const level = LEVELS.find((l) => l === logLevel);
  if (level === undefined)
    return invalid(`LOG_LEVEL "${logLevel}" must be one of ${LEVELS.join(', ')}`);
  const logFormat = value('LOG_FORMAT');
  const format = FORMATS.find((f) => f === logFormat);
  if (logFormat !== undefined && format === undefined)
    return invalid(`LOG_FORMAT "${logFormat}" must be json or pretty`);
  const redisUrl = value('REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl))
    return invalid('REDIS_URL must start with redis:// or rediss://');
  return {
    status: 'ok',
    config: {
      baseUrl,
      apiKey,
      pollMs,
      port,
      metricsPort,
      host: flags.host ?? '0.0.0.0',
      callbackPath: flags.path ?? '/callbacks',
      callbackSecret,
      redisUrl,
      redisPrefix: value('REDIS_PREFIX') ?? 'switchboard:',
      logLevel: level,
      logFormat: format,
    },
  };
}
