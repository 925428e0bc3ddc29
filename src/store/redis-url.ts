/**
 * The forms of `REDIS_URL`, parsed without connecting (no ioredis here): one node, a Redis
 * Cluster, or a Sentinel-managed primary. Errors say what is wrong and where (which seed,
 * which part), and never repeat a password.
 */

/** One `host:port` of a cluster seed or a Sentinel. */
export interface RedisAddress {
  readonly host: string;
  readonly port: number;
}

/** Credentials and TLS shared by the nodes of a target. */
interface RedisAuth {
  /** `rediss` schemes: TLS to every node. */
  readonly tls: boolean;
  readonly username?: string;
  readonly password?: string;
}

/** Where the Redis adapters connect, as {@link parseRedisUrl} read it. */
export type RedisTarget =
  | { readonly kind: 'single'; readonly url: string }
  | ({ readonly kind: 'cluster'; readonly seeds: readonly RedisAddress[] } & RedisAuth)
  | ({
      readonly kind: 'sentinel';
      readonly sentinels: readonly RedisAddress[];
      /** The Sentinel master group name (`mymaster`). */
      readonly name: string;
      readonly db: number;
      /** `?sentinelPassword=`: the Sentinels' own password, when they have one. */
      readonly sentinelPassword?: string;
    } & RedisAuth);

/** A `REDIS_URL` that cannot be used; the message names the part. */
export class RedisUrlError extends Error {
  override readonly name = 'RedisUrlError';
}

/** Options of {@link parseRedisUrl}. */
export interface ParseRedisUrlOptions {
  /** `--redis-cluster` / `REDIS_CLUSTER=1`: a single `redis://` URL is a cluster seed. */
  readonly cluster?: boolean;
  /** The name used in messages (default `REDIS_URL`). */
  readonly source?: string;
}

const SCHEME = /^(rediss?)(\+cluster|\+sentinel)?:\/\//i;

/**
 * Reads a `REDIS_URL`:
 * - `redis://[user:pass@]host:port[/db]` (or `rediss://`): one node;
 * - `redis+cluster://[user:pass@]host1:7000,host2:7001` or several comma-separated
 *   `redis://host:port` seeds (or one with `cluster: true`): a Redis Cluster;
 * - `redis+sentinel://[user:pass@]host1:26379,host2:26379/mymaster[/db]`: the primary
 *   of the Sentinel master group `mymaster`.
 * @throws {RedisUrlError} naming the part that is wrong.
 * @example
 * parseRedisUrl('redis+sentinel://10.0.0.1:26379,10.0.0.2:26379/mymaster');
 * // { kind: 'sentinel', sentinels: [...], name: 'mymaster', db: 0, tls: false }
 */
export function parseRedisUrl(raw: string, options: ParseRedisUrlOptions = {}): RedisTarget {
  const source = options.source ?? 'REDIS_URL';
  const text = raw.trim();
  if (text === '') throw new RedisUrlError(`${source} is empty`);
  const fail = (what: string): never => {
    throw new RedisUrlError(`${source} ${JSON.stringify(redact(text))}: ${what}`);
  };
  const scheme = SCHEME.exec(text);
  if (scheme === null)
    return fail(
      'must start with redis://, rediss://, redis+cluster:// or redis+sentinel:// (see docs/scaling.md)',
    );
  const tls = scheme[1]!.toLowerCase() === 'rediss';
  const variant = scheme[2]?.toLowerCase();
  if (variant === '+sentinel') return parseSentinel(text.slice(scheme[0].length), tls, fail);
  if (variant === '+cluster') {
    const { auth, hosts, path } = splitAuthority(text.slice(scheme[0].length), fail);
    checkClusterDb(path, 'the path', fail);
    return { kind: 'cluster', seeds: addresses(hosts, 6379, 'seed', fail), tls, ...auth };
  }
  const parts = text.split(',');
  if (parts.length === 1 && options.cluster !== true) {
    // One node: checked here, connected by ioredis from the URL itself.
    const { hosts, path } = splitAuthority(text.slice(scheme[0].length), fail);
    addresses(hosts, 6379, 'host', fail);
    if (path !== '' && !/^\d+$/.test(path)) fail(`the database "/${path}" must be a number`);
    return { kind: 'single', url: text };
  }
  // Several redis:// seeds (or one with the cluster flag): a cluster.
  const seeds: RedisAddress[] = [];
  let auth: Omit<RedisAuth, 'tls'> = {};
  parts.forEach((part, index) => {
    const where = `seed ${index + 1}`;
    const own = SCHEME.exec(part.trim());
    if (own === null || own[2] !== undefined)
      fail(`${where} must start with redis:// or rediss:// (seeds are separated by commas)`);
    if ((own![1]!.toLowerCase() === 'rediss') !== tls)
      fail(`${where} mixes redis:// and rediss://; use one for every seed`);
    const split = splitAuthority(part.trim().slice(own![0].length), fail);
    checkClusterDb(split.path, `${where}'s path`, fail);
    seeds.push(...addresses(split.hosts, 6379, where, fail));
    if (split.auth.password !== undefined || split.auth.username !== undefined) auth = split.auth;
  });
  return { kind: 'cluster', seeds, tls, ...auth };
}

function parseSentinel(rest: string, tls: boolean, fail: (what: string) => never): RedisTarget {
  const { auth, hosts, path, query } = splitAuthority(rest, fail);
  const sentinels = addresses(hosts, 26379, 'sentinel', fail);
  const [name = '', db = '0', ...extra] = path.split('/');
  if (name === '')
    fail('the master group name is missing: redis+sentinel://host:26379,host:26380/mymaster');
  if (extra.length > 0 || !/^\d+$/.test(db))
    fail(`the path "/${path}" must be /<master name> or /<master name>/<db number>`);
  const params = new URLSearchParams(query);
  for (const key of params.keys())
    if (key !== 'sentinelPassword')
      fail(`unknown option "${key}" (the only one is sentinelPassword)`);
  const sentinelPassword = params.get('sentinelPassword');
  return {
    kind: 'sentinel',
    sentinels,
    name: decodeURIComponent(name),
    db: Number(db),
    tls,
    ...auth,
    ...(sentinelPassword === null ? {} : { sentinelPassword }),
  };
}

/** `[user:pass@]hosts[/path][?query]` of the part after the scheme. */
function splitAuthority(
  rest: string,
  fail: (what: string) => never,
): { auth: Omit<RedisAuth, 'tls'>; hosts: string; path: string; query: string } {
  const queryAt = rest.indexOf('?');
  const query = queryAt === -1 ? '' : rest.slice(queryAt + 1);
  const beforeQuery = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const slash = beforeQuery.indexOf('/');
  const authority = slash === -1 ? beforeQuery : beforeQuery.slice(0, slash);
  const path = slash === -1 ? '' : beforeQuery.slice(slash + 1).replace(/\/$/, '');
  const at = authority.lastIndexOf('@');
  const hosts = at === -1 ? authority : authority.slice(at + 1);
  if (hosts === '') fail('no host:port after the scheme');
  if (at === -1) return { auth: {}, hosts, path, query };
  const userinfo = authority.slice(0, at);
  const colon = userinfo.indexOf(':');
  const username = decodeURIComponent(colon === -1 ? userinfo : userinfo.slice(0, colon));
  const password = colon === -1 ? undefined : decodeURIComponent(userinfo.slice(colon + 1));
  return {
    auth: {
      ...(username === '' ? {} : { username }),
      ...(password === undefined || password === '' ? {} : { password }),
    },
    hosts,
    path,
    query,
  };
}

/** `host[:port]` items separated by commas; `[v6]:port` for IPv6. */
function addresses(
  hosts: string,
  defaultPort: number,
  label: string,
  fail: (what: string) => never,
): RedisAddress[] {
  return hosts.split(',').map((item, index) => {
    const where = hosts.includes(',') ? `${label} ${index + 1} "${item}"` : `${label} "${item}"`;
    const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::([^:]*))?$/.exec(item.trim());
    if (match === null) return fail(`${where} must be host or host:port`);
    const host = match[1]!.replace(/^\[|\]$/g, '');
    const portText = match[2];
    if (portText === undefined) return { host, port: defaultPort };
    const port = Number(portText);
    if (!/^\d+$/.test(portText) || port < 1 || port > 65_535)
      return fail(`${where}: port "${portText}" must be an integer 1..65535`);
    return { host, port };
  });
}

function checkClusterDb(path: string, where: string, fail: (what: string) => never): void {
  if (path !== '' && path !== '0')
    fail(
      `${where} "/${path}": a Redis Cluster has only database 0 (use REDIS_PREFIX to share one)`,
    );
}

/** The URL with any password replaced, for messages. */
function redact(text: string): string {
  return text
    .replace(/\/\/([^@/,]*?):([^@/]*)@/g, '//$1:***@')
    .replace(/(sentinelPassword=)[^&]*/g, '$1***');
}
