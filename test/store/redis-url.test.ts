import { describe, expect, it } from 'vitest';
import { parseRedisUrl, RedisUrlError } from '../../src/store/redis-url.js';

describe('parseRedisUrl', () => {
  it('should keep a single node URL as it is', () => {
    expect(parseRedisUrl('redis://:pw@127.0.0.1:6379/2')).toEqual({
      kind: 'single',
      url: 'redis://:pw@127.0.0.1:6379/2',
    });
    expect(parseRedisUrl('rediss://cache.example.com')).toMatchObject({ kind: 'single' });
  });

  it('should read a redis+cluster URL, its credentials and default port', () => {
    expect(parseRedisUrl('redis+cluster://app:s3cret@10.0.0.1:7000,10.0.0.2,[::1]:7002')).toEqual({
      kind: 'cluster',
      seeds: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 6379 },
        { host: '::1', port: 7002 },
      ],
      tls: false,
      username: 'app',
      password: 's3cret',
    });
  });

  it('should read comma-separated redis:// seeds, or one seed with the cluster flag, as a cluster', () => {
    expect(parseRedisUrl('redis://:pw@h1:7000,redis://h2:7001')).toEqual({
      kind: 'cluster',
      seeds: [
        { host: 'h1', port: 7000 },
        { host: 'h2', port: 7001 },
      ],
      tls: false,
      password: 'pw',
    });
    expect(parseRedisUrl('rediss://h1:7000', { cluster: true })).toEqual({
      kind: 'cluster',
      seeds: [{ host: 'h1', port: 7000 }],
      tls: true,
    });
  });

  it('should read a Sentinel URL: sentinels, master name, db and sentinel password', () => {
    expect(
      parseRedisUrl('redis+sentinel://:pw@s1:26379,s2/mymaster/3?sentinelPassword=sp'),
    ).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      name: 'mymaster',
      db: 3,
      tls: false,
      password: 'pw',
      sentinelPassword: 'sp',
    });
  });

  it.each([
    ['', /^REDIS_URL is empty$/],
    ['localhost:6379', /must start with redis:\/\/, rediss:\/\//],
    ['redis://h1:7000,h2:7001', /seed 2 must start with redis:\/\/ or rediss:\/\//],
    ['redis://h1:7000,rediss://h2:7001', /seed 2 mixes redis:\/\/ and rediss:\/\//],
    [
      'redis://h1:7000/1,redis://h2:7001',
      /seed 1's path "\/1": a Redis Cluster has only database 0/,
    ],
    ['redis+cluster://h1:0', /seed "h1:0": port "0" must be an integer 1..65535/],
    ['redis+cluster://', /no host:port after the scheme/],
    ['redis://h1:6379/x', /the database "\/x" must be a number/],
    ['redis+sentinel://s1:26379', /master group name is missing/],
    ['redis+sentinel://s1:26379/m/1/2', /must be \/<master name> or \/<master name>\/<db number>/],
    ['redis+sentinel://s1/m?role=slave', /unknown option "role"/],
    ['redis+sentinel://s1:2x/m', /sentinel "s1:2x": port "2x"/],
  ])('should refuse %j saying what and where', (url, message) => {
    expect(() => parseRedisUrl(url)).toThrow(RedisUrlError);
    expect(() => parseRedisUrl(url)).toThrow(message);
  });

  it('should never repeat a password in an error', () => {
    const attempt = (): unknown => parseRedisUrl('redis://user:hunter2@h1:7000,redis://h2:bad');
    expect(attempt).toThrow(/user:\*\*\*@h1/);
    expect(attempt).not.toThrow(/hunter2/);
    expect(() => parseRedisUrl('redis+sentinel://s1/m?sentinelPassword=hunter2&x=1')).not.toThrow(
      /hunter2/,
    );
  });
});
