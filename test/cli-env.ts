/**
 * Variables that configure `switchboard run`/`broadcast`. CI exports some of them (REDIS_URL
 * for the Redis suites): a spawned CLI must see only what its test gives it.
 */
const CONFIG_VARIABLES = [
  'MESSAGING_API_BASE_URL',
  'MESSAGING_API_KEY',
  'CALLBACK_SECRET',
  'EVENTS_TOKEN',
  'REDIS_URL',
  'REDIS_PREFIX',
  'STATE_PATH',
  'SWITCHBOARD_WORKER_ID',
  'RETENTION_SENDS',
  'RETENTION_IDLE',
  'LOG_LEVEL',
  'LOG_FORMAT',
];

/** The environment of a spawned CLI: this process's, without switchboard's configuration, plus `vars`. */
export function cliEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete env[name];
  return { ...env, ...vars };
}
