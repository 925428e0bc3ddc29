import { describe, expect, it } from 'vitest';
import { parseRunConfig } from '../../src/cli/run-config.js';

const env = {
  MESSAGING_API_BASE_URL: 'https://api.example.com',
  MESSAGING_API_KEY: 'sk_live_x',
  CALLBACK_SECRET: 'whsec',
};

describe('parseRunConfig', () => {
  it('should accept polling and callbacks with their settings', () => {
    const r = parseRunConfig(
      { poll: '2s', port: '8080' },
      { ...env, REDIS_URL: 'redis://127.0.0.1:6379', LOG_LEVEL: 'debug', LOG_FORMAT: 'json' },
    );
    expect(r).toMatchObject({
      status: 'ok',
      config: {
        pollMs: 2000,
        port: 8080,
        redisUrl: 'redis://127.0.0.1:6379',
        logLevel: 'debug',
        logFormat: 'json',
        callbackPath: '/callbacks',
      },
    });
  });

  it('should read a cluster URL and the durability mode', () => {
    const r = parseRunConfig(
      { poll: '2s' },
      {
        ...env,
        REDIS_URL: 'redis://127.0.0.1:7000',
        REDIS_CLUSTER: '1',
        REDIS_WAIT_REPLICAS: '1',
        REDIS_WAIT_TIMEOUT: '250ms',
      },
    );
    expect(r).toMatchObject({
      status: 'ok',
      config: { redisCluster: true, redisDurability: { replicas: 1, timeoutMs: 250 } },
    });
    expect(parseRunConfig({ poll: '2s' }, env)).toMatchObject({
      config: { redisCluster: false, redisDurability: undefined },
    });
  });

  it('should take --metrics-port for a polling-only worker', () => {
    const r = parseRunConfig({ poll: '1s', metricsPort: '9464' }, env);
    expect(r).toMatchObject({ status: 'ok', config: { metricsPort: 9464, port: undefined } });
  });

  it.each([
    [{ poll: '2s' }, { MESSAGING_API_KEY: 'k' }, /^MESSAGING_API_BASE_URL is not set/],
    [{ poll: '2s' }, { MESSAGING_API_BASE_URL: 'ftp://x' }, /is not an http\(s\) URL/],
    [
      { poll: '2s' },
      { MESSAGING_API_BASE_URL: 'https://x.example' },
      /^MESSAGING_API_KEY is not set/,
    ],
    [{}, env, /pass --poll <interval>/],
    [{ poll: 'soon' }, env, /--poll "soon" must be a duration/],
    [{ port: '99999' }, env, /--port "99999" must be an integer/],
    [{ poll: '2s', metricsPort: 'x' }, env, /--metrics-port "x" must be an integer/],
    [{ port: '8080' }, { ...env, CALLBACK_SECRET: '' }, /^CALLBACK_SECRET is not set/],
    [{ poll: '2s' }, { ...env, LOG_LEVEL: 'loud' }, /LOG_LEVEL "loud"/],
    [{ poll: '2s' }, { ...env, LOG_FORMAT: 'xml' }, /LOG_FORMAT "xml"/],
    [
      { poll: '2s' },
      { ...env, REDIS_URL: 'localhost:6379' },
      /REDIS_URL "localhost:6379": must start with redis:\/\//,
    ],
    [
      { poll: '2s' },
      { ...env, REDIS_URL: 'redis+sentinel://127.0.0.1:26379' },
      /master group name is missing/,
    ],
    [
      { poll: '2s' },
      { ...env, REDIS_URL: 'redis://127.0.0.1:7000,redis://127.0.0.1:x' },
      /seed 2 "127.0.0.1:x": port "x" must be an integer 1..65535/,
    ],
    [
      { poll: '2s' },
      { ...env, REDIS_URL: 'redis://a', REDIS_CLUSTER: 'yes' },
      /REDIS_CLUSTER "yes"/,
    ],
    [
      { poll: '2s' },
      { ...env, REDIS_URL: 'redis://a', REDIS_WAIT_REPLICAS: 'one' },
      /REDIS_WAIT_REPLICAS "one" must be an integer 0..5/,
    ],
    [
      { poll: '2s' },
      { ...env, REDIS_URL: 'redis://a', REDIS_WAIT_REPLICAS: '1', REDIS_WAIT_TIMEOUT: '2m' },
      /REDIS_WAIT_TIMEOUT "2m" must be a duration from 1ms to 60s/,
    ],
    [{ poll: '2s' }, { ...env, REDIS_WAIT_REPLICAS: '1' }, /REDIS_URL is not/],
    [
      { poll: '2s' },
      { ...env, REDIS_URL: 'redis://127.0.0.1:6379', STATE_PATH: 'state.db' },
      /REDIS_URL is set: state lives in Redis; drop STATE_PATH/,
    ],
    [
      { poll: '2s', state: 'state.db' },
      { ...env, REDIS_URL: 'redis://127.0.0.1:6379' },
      /drop --state/,
    ],
    [
      { poll: '2s', memory: true },
      { ...env, REDIS_URL: 'redis://127.0.0.1:6379' },
      /drop --memory/,
    ],
  ])('should reject %j with %j in one line', (flags, environment, message) => {
    const r = parseRunConfig(flags, environment);
    expect(r.status).toBe('invalid');
    if (r.status === 'invalid') {
      expect(r.message).toMatch(message);
      expect(r.message).not.toContain('\n');
    }
  });
});
