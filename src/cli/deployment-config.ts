import type { DeploymentConfig } from './run-deployment.js';
import { parseRunConfig, type RunFlags } from './run-config.js';

/** Outcome of {@link parseDeploymentConfig}. */
export type DeploymentConfigResult =
  | { readonly status: 'ok'; readonly config: DeploymentConfig }
  | { readonly status: 'invalid'; readonly message: string };

/**
 * The configuration of `switchboard run --deployment <file>`: the flags and variables of
 * `switchboard run` that apply to the whole process (`--port`, `--metrics-port`, `--host`,
 * `--memory`, `--state <dir>`, `MESSAGING_API_BASE_URL`, `REDIS_URL`, `REDIS_PREFIX`,
 * `SWITCHBOARD_WORKER_ID`, `RETENTION_*`, `LOG_*`), checked by the same rules. Keys,
 * secrets, polling and backfill are per number, in the file: `MESSAGING_API_KEY`,
 * `CALLBACK_SECRET`, `--poll`, `--backfill` and `--path` are refused here.
 */
export function parseDeploymentConfig(
  flags: RunFlags,
  env: Readonly<Record<string, string | undefined>>,
): DeploymentConfigResult {
  const invalid = (message: string): DeploymentConfigResult => ({ status: 'invalid', message });
  for (const [flag, value] of [
    ['--poll', flags.poll],
    ['--backfill', flags.backfill],
    ['--path', flags.path === '/callbacks' ? undefined : flags.path],
  ] as const) {
    if (value !== undefined)
      return invalid(`${flag} is per number with --deployment: set it in the deployment file`);
  }
  if (env['STATE_PATH'] !== undefined && flags.state === undefined)
    return invalid('STATE_PATH names one state file; with --deployment use --state <directory>');
  // Whole-process settings follow the rules of `switchboard run`; the key is the file's.
  const parsed = parseRunConfig(
    {
      poll: '1s',
      ...(flags.metricsPort === undefined ? {} : { metricsPort: flags.metricsPort }),
      ...(flags.host === undefined ? {} : { host: flags.host }),
      ...(flags.memory === undefined ? {} : { memory: flags.memory }),
      ...(flags.state === undefined ? {} : { state: flags.state }),
    },
    { ...env, MESSAGING_API_KEY: 'set-per-number', STATE_PATH: undefined, EVENTS_TOKEN: undefined },
  );
  if (parsed.status === 'invalid') return parsed;
  let port: number | undefined;
  if (flags.port !== undefined) {
    if (!/^\d+$/.test(flags.port) || Number(flags.port) > 65_535)
      return invalid(`--port "${flags.port}" must be an integer 0..65535`);
    port = Number(flags.port);
  }
  const c = parsed.config;
  return {
    status: 'ok',
    config: {
      baseUrl: c.baseUrl,
      port,
      metricsPort: c.metricsPort,
      host: c.host,
      redisUrl: c.redisUrl,
      redisCluster: c.redisCluster,
      redisPrefix: c.redisPrefix,
      memory: c.memory,
      workerId: c.workerId,
      retention: c.retention,
      logLevel: c.logLevel,
      logFormat: c.logFormat,
      stateDir: c.statePath,
    },
  };
}
