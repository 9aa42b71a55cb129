import { describe, expect, it } from '@jest/globals';
import { loadConfig } from './config.js';

/** As `openssl rand -hex 32` prints one. */
const TOKEN = '5d0e8c2b7f4a91e63c5b8d2f0a7e4c19b6d3f8a2e5c07b4d9f1a6e3c8b2d5f70';

describe('loadConfig', () => {
  it('has defaults that run a development server on SQLite', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:./data/petstore.db',
      databasePoolMode: 'session',
      publicBaseUrl: null,
      redis: null,
      trustedProxyHops: 0,
      logLevel: 'info',
      ban: { strikes: 10, durationSeconds: 900, strikeIntervalSeconds: 1 },
      failedAuthPerMinute: 60,
      nodeEnv: 'development',
      metricsPort: null,
      metricsHost: '127.0.0.1',
      corsOrigins: [],
      keyCacheTtlMs: 2000,
      keyUsageFlushMs: 30000,
      shutdownTimeoutMs: 10000,
      headersTimeoutMs: 10000,
      requestTimeoutMs: 30000,
      databaseTimeoutMs: 5000,
      sqliteSynchronous: 'NORMAL',
      sqliteKeptListingRows: 50_000,
      docsEnabled: true,
      admin: null,
      webhooks: { allowPrivateTargets: false, retryDelaysMs: null, timeoutMs: 10000, pollIntervalMs: 1000, retentionMs: 30 * 86_400_000 },
    });
  });

  it('reads the webhook settings, refusing a malformed retry schedule', () => {
    const env = {
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_RETRY_SCHEDULE_MS: '100, 200,400',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_POLL_INTERVAL_MS: '50',
      EVENT_RETENTION: '12h',
    };
    expect(loadConfig(env).webhooks).toEqual({
      allowPrivateTargets: true,
      retryDelaysMs: [100, 200, 400],
      timeoutMs: 2000,
      pollIntervalMs: 50,
      retentionMs: 12 * 3_600_000,
    });
    expect(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '5s,1m' })).toThrow(expect.objectContaining({ variable: 'WEBHOOK_RETRY_SCHEDULE_MS' }));
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'maybe' })).toThrow(
      expect.objectContaining({ variable: 'WEBHOOK_ALLOW_PRIVATE_TARGETS' }),
    );
  });

  it.each([
    ['45s', 45_000],
    ['90m', 90 * 60_000],
    ['3650d', 3_650 * 86_400_000],
  ])('reads EVENT_RETENTION=%s', (value, ms) => {
    expect(loadConfig({ EVENT_RETENTION: value }).webhooks.retentionMs).toBe(ms);
  });

  it.each(['30', '30 d', '30D', '1w', '-1d', '0d', '9s', '3651d', '1.5d', 'forever'])(
    'refuses EVENT_RETENTION=%s, naming the accepted form',
    (value) => {
      expect(() => loadConfig({ EVENT_RETENTION: value })).toThrow(
        `EVENT_RETENTION="${value}" is invalid: expected a whole number and a unit (s, m, h or d) from 10s to 3650d, such as 30d or 12h`,
      );
    },
  );

  it('opens the admin listener only with ADMIN_TOKEN: on 127.0.0.1:3001 unless told otherwise, whatever HOST is', () => {
    expect(loadConfig({ ADMIN_TOKEN: TOKEN, HOST: '0.0.0.0' }).admin).toEqual({ token: TOKEN, port: 3001, host: '127.0.0.1', publicBaseUrl: null });
    expect(loadConfig({ ADMIN_TOKEN: '' }).admin).toBeNull();
  });

  it.each([
    'https://admin.example.com',
    'https://admin.example.com/admin/v1/',
    'ftp://admin.example.com/admin/v1',
    '/admin/v1',
    'https://a.example/admin/v1?x=1',
  ])('refuses ADMIN_PUBLIC_BASE_URL=%s: an absolute http(s) URL ending in /admin/v1', (value) => {
    expect(() => loadConfig({ ADMIN_TOKEN: TOKEN, ADMIN_PUBLIC_BASE_URL: value })).toThrow(
      expect.objectContaining({
        variable: 'ADMIN_PUBLIC_BASE_URL',
        message: `ADMIN_PUBLIC_BASE_URL="${value}" is invalid: expected an absolute http(s) URL ending in /admin/v1, such as https://admin.example.com/admin/v1`,
      }),
    );
  });

  it.each([
    ['a short token', 'x'.repeat(31)],
    ['a token with a space', `${'x'.repeat(32)} y`],
  ])('refuses %s without printing it', (_, token) => {
    let message = '';
    try {
      loadConfig({ ADMIN_TOKEN: token });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      `ADMIN_TOKEN="(hidden, ${token.length} characters)" is invalid: expected at least 32 characters without spaces, such as the output of openssl rand -hex 32`,
    );
    expect(message).not.toContain('xxxxxxxx');
  });

  it('reads a Redis Cluster from its seed nodes, and Sentinel from the Sentinels and the master name', () => {
    expect(loadConfig({ REDIS_CLUSTER_NODES: '10.0.0.1:7000, redis-b.internal:7001,[::1]:7002' }).redis).toEqual({
      kind: 'cluster',
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: 'redis-b.internal', port: 7001 },
        { host: '::1', port: 7002 },
      ],
    });
    expect(loadConfig({ REDIS_SENTINELS: 's1:26379,s2:26379', REDIS_SENTINEL_MASTER: 'mymaster' }).redis).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      masterName: 'mymaster',
    });
  });

  it.each([
    [{ REDIS_URL: 'redis://a:6379', REDIS_CLUSTER_NODES: 'b:7000' }, 'REDIS_CLUSTER_NODES', 'b:7000', 'REDIS_URL'],
    [{ REDIS_URL: 'redis://a:6379', REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_MASTER: 'm' }, 'REDIS_SENTINELS', 's:26379', 'REDIS_URL'],
    [{ REDIS_CLUSTER_NODES: 'b:7000', REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_MASTER: 'm' }, 'REDIS_SENTINELS', 's:26379', 'REDIS_CLUSTER_NODES'],
  ])('refuses two Redis topologies at once (%j), naming them', (env, variable, value, other) => {
    expect(() => loadConfig(env)).toThrow(
      expect.objectContaining({
        variable,
        message: `${variable}="${value}" is invalid: expected only one of REDIS_URL, REDIS_CLUSTER_NODES, REDIS_SENTINELS to be set, not ${other} as well`,
      }),
    );
  });

  it.each(['a', 'a:', ':7000', 'a:0', 'a:65536', 'a:7000,', 'a:7000;b:7001', 'redis://a:7000', '::1:7000', 'a b:7000'])(
    'refuses REDIS_CLUSTER_NODES=%s and the same REDIS_SENTINELS: a comma-separated list of host:port',
    (value) => {
      const accepted = 'a comma-separated list of host:port, such as 10.0.0.1:6379,10.0.0.2:6379 ([::1]:6379 for IPv6)';
      expect(() => loadConfig({ REDIS_CLUSTER_NODES: value })).toThrow(
        `REDIS_CLUSTER_NODES=${JSON.stringify(value)} is invalid: expected ${accepted}`,
      );
      expect(() => loadConfig({ REDIS_SENTINELS: value, REDIS_SENTINEL_MASTER: 'm' })).toThrow(
        `REDIS_SENTINELS=${JSON.stringify(value)} is invalid: expected ${accepted}`,
      );
    },
  );

  it.each([
    [{ REDIS_SENTINELS: 's:26379' }, 'REDIS_SENTINEL_MASTER=""', 'the name the Sentinels watch the master under'],
    [{ REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_MASTER: 'my master' }, 'REDIS_SENTINEL_MASTER="my master"', 'the name the Sentinels watch'],
    [{ REDIS_SENTINEL_MASTER: 'mymaster' }, 'REDIS_SENTINEL_MASTER="mymaster"', 'REDIS_SENTINELS to be set too'],
    [{ REDIS_URL: 'redis://a:6379', REDIS_SENTINEL_MASTER: 'mymaster' }, 'REDIS_SENTINEL_MASTER="mymaster"', 'REDIS_SENTINELS to be set too'],
  ])('refuses Sentinel settings that do not name a master, or a master without Sentinels (%j)', (env, shown, expected) => {
    expect(() => loadConfig(env)).toThrow(`${shown} is invalid: expected ${expected}`);
  });

  it('signs in to Cluster and Sentinel nodes with REDIS_USERNAME and REDIS_PASSWORD, over TLS with REDIS_TLS, to Sentinels with REDIS_SENTINEL_PASSWORD', () => {
    const security = { REDIS_USERNAME: 'petstore', REDIS_PASSWORD: 'p@ss word:/', REDIS_TLS: 'true' };
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'a:7000', ...security }).redis).toEqual({
      kind: 'cluster',
      nodes: [{ host: 'a', port: 7000 }],
      username: 'petstore',
      password: 'p@ss word:/',
      tls: true,
    });
    expect(
      loadConfig({ REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_MASTER: 'm', REDIS_PASSWORD: 'data', REDIS_SENTINEL_PASSWORD: 'watch' }).redis,
    ).toEqual({ kind: 'sentinel', sentinels: [{ host: 's', port: 26379 }], masterName: 'm', password: 'data', sentinelPassword: 'watch' });
    expect(loadConfig({ REDIS_CLUSTER_NODES: 'a:7000', REDIS_TLS: 'false' }).redis).toEqual({ kind: 'cluster', nodes: [{ host: 'a', port: 7000 }] });
  });

  const withUrl =
    'REDIS_CLUSTER_NODES or REDIS_SENTINELS to be set instead of REDIS_URL, which carries its own user, password and TLS (rediss://user:password@host:port)';
  it.each([
    [{ REDIS_URL: 'redis://a:6379', REDIS_PASSWORD: 'secret1' }, 'REDIS_PASSWORD="(hidden, 7 characters)"', withUrl],
    [{ REDIS_URL: 'rediss://u:p@a:6379', REDIS_USERNAME: 'u' }, 'REDIS_USERNAME="u"', withUrl],
    [{ REDIS_URL: 'redis://a:6379', REDIS_TLS: 'true' }, 'REDIS_TLS="true"', withUrl],
    [{ REDIS_PASSWORD: 'secret1' }, 'REDIS_PASSWORD="(hidden, 7 characters)"', 'REDIS_CLUSTER_NODES or REDIS_SENTINELS to be set too'],
    [
      { REDIS_CLUSTER_NODES: 'a:7000', REDIS_SENTINEL_PASSWORD: 'secret1' },
      'REDIS_SENTINEL_PASSWORD="(hidden, 7 characters)"',
      'REDIS_SENTINELS to be set too',
    ],
    [{ REDIS_CLUSTER_NODES: 'a:7000', REDIS_USERNAME: 'petstore' }, 'REDIS_USERNAME="petstore"', 'REDIS_PASSWORD to be set too'],
    [{ REDIS_CLUSTER_NODES: 'a:7000', REDIS_USERNAME: 'pet store', REDIS_PASSWORD: 'x' }, 'REDIS_USERNAME="pet store"', 'an ACL user name'],
    [{ REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_MASTER: 'm', REDIS_TLS: 'on' }, 'REDIS_TLS="on"', 'true or false'],
  ])('refuses Redis sign-in settings it cannot use, naming the variable and never showing a password (%j)', (env, named, expected) => {
    let message = '';
    try {
      loadConfig(env);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(`${named} is invalid: expected ${expected}`);
    expect(message).not.toContain('secret1');
  });

  it.each([
    ['32 identical characters', 'a'.repeat(32), 8],
    ['a block written twice', '3f0c9a5e1b2d4c6f3f0c9a5e1b2d4c6f', 54],
    ['a sequence', 'abcdefghijklmnopqrstuvwxyz0123456789', 14],
    ['32 random hex digits (under 128 bits as estimated)', 'c2a9e4f7b1d8036e5a4c9f2b7d1e8a3c', 104],
  ])('refuses %s: under 128 bits of estimated entropy, without printing it', (_, token, bits) => {
    expect(() => loadConfig({ ADMIN_TOKEN: token })).toThrow(
      expect.objectContaining({
        variable: 'ADMIN_TOKEN',
        message:
          `ADMIN_TOKEN="(hidden, ${token.length} characters)" is invalid: expected a random token of at least 128 bits of estimated entropy ` +
          `(this one: about ${bits}), such as the output of openssl rand -hex 32`,
      }),
    );
  });

  it.each([
    ['openssl rand -hex 32', TOKEN],
    ['openssl rand -base64 32', 'oJqTABg4w6bUZ1Vag0/L6wNx4VbaoqjKrfad4jes58o='],
    ["the tests' tokens", 'e2e-admin-token-5f1c0a9e7b3d2c4a6e8f0b1d3c5a7e9f'],
  ])('accepts a token made by %s', (_, token) => {
    expect(loadConfig({ ADMIN_TOKEN: token }).admin?.token).toBe(token);
  });

  it('counts trusted proxy hops: TRUST_PROXY=true is one, TRUST_PROXY_HOPS says how many', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustedProxyHops).toBe(1);
    expect(loadConfig({ TRUST_PROXY_HOPS: '2' }).trustedProxyHops).toBe(2);
    expect(loadConfig({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '3' }).trustedProxyHops).toBe(3);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustedProxyHops).toBe(0);
  });

  it('reads every variable', () => {
    expect(
      loadConfig({
        PORT: '8080',
        HOST: '0.0.0.0',
        DATABASE_URL: 'postgres://u:p@db:5432/petstore',
        DATABASE_POOL_MODE: 'transaction',
        PUBLIC_BASE_URL: 'https://api.example.com/v1',
        REDIS_URL: 'redis://cache:6379/0',
        TRUST_PROXY: 'true',
        LOG_LEVEL: 'warn',
        BAN_STRIKES: '5',
        BAN_SECONDS: '60',
        BAN_STRIKE_INTERVAL_SECONDS: '2',
        FAILED_AUTH_PER_MINUTE: '30',
        NODE_ENV: 'production',
        METRICS_PORT: '9464',
        METRICS_HOST: '10.0.0.6',
        CORS_ORIGINS: 'https://a.example, http://localhost:5173',
        KEY_CACHE_TTL_MS: '1000',
        KEY_USAGE_FLUSH_MS: '500',
        SHUTDOWN_TIMEOUT_MS: '2000',
        HEADERS_TIMEOUT_MS: '1000',
        REQUEST_TIMEOUT_MS: '2000',
        DATABASE_TIMEOUT_MS: '300',
        SQLITE_SYNCHRONOUS: 'FULL',
        SQLITE_KEPT_LISTING_ROWS: '0',
        DOCS_ENABLED: 'false',
        ADMIN_TOKEN: TOKEN,
        ADMIN_PORT: '9000',
        ADMIN_HOST: '10.0.0.5',
        ADMIN_PUBLIC_BASE_URL: 'https://admin.example.com/admin/v1',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false',
        WEBHOOK_RETRY_SCHEDULE_MS: '1000,60000',
        WEBHOOK_TIMEOUT_MS: '5000',
        WEBHOOK_POLL_INTERVAL_MS: '500',
        EVENT_RETENTION: '90d',
      }),
    ).toEqual({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'postgres://u:p@db:5432/petstore',
      databasePoolMode: 'transaction',
      publicBaseUrl: 'https://api.example.com/v1',
      redis: { kind: 'single', url: 'redis://cache:6379/0' },
      trustedProxyHops: 1,
      logLevel: 'warn',
      ban: { strikes: 5, durationSeconds: 60, strikeIntervalSeconds: 2 },
      failedAuthPerMinute: 30,
      nodeEnv: 'production',
      metricsPort: 9464,
      metricsHost: '10.0.0.6',
      corsOrigins: ['https://a.example', 'http://localhost:5173'],
      keyCacheTtlMs: 1000,
      keyUsageFlushMs: 500,
      shutdownTimeoutMs: 2000,
      headersTimeoutMs: 1000,
      requestTimeoutMs: 2000,
      databaseTimeoutMs: 300,
      sqliteSynchronous: 'FULL',
      sqliteKeptListingRows: 0,
      docsEnabled: false,
      admin: { token: TOKEN, port: 9000, host: '10.0.0.5', publicBaseUrl: 'https://admin.example.com/admin/v1' },
      webhooks: { allowPrivateTargets: false, retryDelaysMs: [1000, 60000], timeoutMs: 5000, pollIntervalMs: 500, retentionMs: 90 * 86_400_000 },
    });
  });

  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['', true],
    ['false', false],
    ['0', false],
    ['no', false],
  ])('reads DOCS_ENABLED=%j as %s (the API reference is on unless turned off)', (value, enabled) => {
    expect(loadConfig({ DOCS_ENABLED: value }).docsEnabled).toBe(enabled);
  });

  it('leaves PUBLIC_BASE_URL to the server when unset: the address it listens on', () => {
    expect(loadConfig({ PORT: '4000', HOST: '0.0.0.0' }).publicBaseUrl).toBeNull();
  });

  it.each([
    ['PORT', 'abc', 'an integer from 0 to 65535'],
    ['PORT', '70000', 'an integer from 0 to 65535'],
    ['HOST', 'my host', 'a host name or IP address to listen on'],
    ['DATABASE_URL', 'mysql://db/x', 'sqlite:<path>, sqlite::memory: or postgres://user:pass@host:port/db'],
    ['PUBLIC_BASE_URL', 'https://api.example.com', 'an absolute http(s) URL ending in /v1, such as https://api.example.com/v1'],
    ['PUBLIC_BASE_URL', 'https://api.example.com/v1/', 'an absolute http(s) URL ending in /v1, such as https://api.example.com/v1'],
    ['REDIS_URL', 'localhost:6379', 'redis://[user:pass@]host:port[/db] or rediss://...'],
    ['TRUST_PROXY', 'maybe', 'true or false'],
    ['DOCS_ENABLED', 'off', 'true or false'],
    ['TRUST_PROXY_HOPS', '11', 'an integer from 0 to 10'],
    ['TRUST_PROXY_HOPS', 'one', 'an integer from 0 to 10'],
    ['LOG_LEVEL', 'verbose', 'one of fatal, error, warn, info, debug, trace, silent'],
    ['BAN_STRIKES', '0', 'an integer from 1 to 1000000'],
    ['BAN_SECONDS', '-5', 'an integer from 1 to 604800'],
    ['BAN_STRIKE_INTERVAL_SECONDS', '0.5', 'an integer from 0 to 3600'],
    ['FAILED_AUTH_PER_MINUTE', '1.5', 'an integer from 1 to 1000000'],
    ['NODE_ENV', 'prod', 'one of development, production, test'],
    ['METRICS_PORT', 'x', 'an integer from 0 to 65535'],
    ['CORS_ORIGINS', 'https://a.example/path', 'a comma-separated list of origins such as https://app.example.com (scheme, host and port only)'],
    ['KEY_CACHE_TTL_MS', '60000', 'an integer from 0 to 5000'],
    ['KEY_USAGE_FLUSH_MS', '50', 'an integer from 100 to 60000'],
    ['DATABASE_POOL_MODE', 'statement', 'one of session, transaction'],
    ['DATABASE_POOL_MODE', 'Transaction', 'one of session, transaction'],
    ['SQLITE_SYNCHRONOUS', 'OFF', 'one of NORMAL, FULL'],
    ['SQLITE_SYNCHRONOUS', 'full', 'one of NORMAL, FULL'],
    ['SQLITE_KEPT_LISTING_ROWS', '-1', 'an integer from 0 to 10000000'],
    ['METRICS_HOST', '0.0.0.0', 'METRICS_PORT to be set too: metrics are served only on a port of their own'],
    ['ADMIN_PORT', '3001', 'ADMIN_TOKEN to be set too: the admin API listens only when it has a token'],
    ['ADMIN_HOST', '0.0.0.0', 'ADMIN_TOKEN to be set too: the admin API listens only when it has a token'],
    ['ADMIN_PUBLIC_BASE_URL', 'https://admin.example.com/admin/v1', 'ADMIN_TOKEN to be set too: the admin API listens only when it has a token'],
  ])('rejects %s=%s with one line naming the variable, the value and what is accepted', (name, value, accepted) => {
    expect(() => loadConfig({ [name]: value })).toThrow(
      expect.objectContaining({ name: 'ConfigError', variable: name, value, message: `${name}="${value}" is invalid: expected ${accepted}` }),
    );
  });

  it.each([
    ['DATABASE_URL', 'mysql://admin:hunter2@db/x', 'mysql://admin:***@db/x', 'sqlite:<path>, sqlite::memory: or postgres://user:pass@host:port/db'],
    ['REDIS_URL', 'redis://:hunter2@cache:port', 'redis://:***@cache:port', 'redis://[user:pass@]host:port[/db] or rediss://...'],
    ['REDIS_URL', 'redis://default:p@ss@cache:port', 'redis://default:***@cache:port', 'redis://[user:pass@]host:port[/db] or rediss://...'],
  ])('rejects %s=%s without showing its password', (name, value, shown, accepted) => {
    expect(() => loadConfig({ [name]: value })).toThrow(
      expect.objectContaining({ name: 'ConfigError', variable: name, value, message: `${name}="${shown}" is invalid: expected ${accepted}` }),
    );
  });
});
