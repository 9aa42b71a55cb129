import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { EnforceRateLimit } from '@petstore/core';
import { createRedisClient, RedisRateLimitStore, whenReady, type RedisClient } from '@petstore/rate-limit-redis';
import { describeWithRedis } from '@petstore/test-support/jest';
import { runCli } from './runCli.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;

describe('the admin CLI (petstore / pnpm keys)', () => {
  let env: Record<string, string>;
  beforeEach(() => {
    env = { DATABASE_URL: `sqlite:${join(dir, `cli-${++count}.db`)}` };
  });

  async function run(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, env, { out: (t) => out.push(t), err: (t) => err.push(t) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('creates a key and prints the secret alone on stdout', async () => {
    const created = await run('keys', 'create', '--plan', 'pro', '--name', 'shelter north');
    expect(created).toEqual({ code: 0, out: expect.stringMatching(/^pst_[0-9A-Za-z]{36}$/), err: expect.stringContaining('on the pro plan') });
    const listed = await run('keys', 'list');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(
      /^ID\s+NAME\s+PLAN\s+PER-MINUTE\s+PER-DAY\s+CREATED\s+REVOKED\nkey_[0-9a-f]{16}\s+shelter north\s+pro\s+300\s+10000\s+\S+Z\s+-$/,
    );
    expect(listed.out).not.toContain(created.out);
  });

  it('requires both custom limits for enterprise, and takes them as overrides on other plans', async () => {
    expect(await run('keys', 'create', '--plan', 'enterprise', '--per-minute', '5000', '--per-day', '1000000')).toMatchObject({ code: 0 });
    expect(await run('keys', 'create', '--plan', 'enterprise', '--per-minute', '5000')).toEqual({
      code: 1,
      out: '',
      err: 'error: --per-day is required for enterprise keys and must be a positive integer',
    });
    expect(await run('keys', 'create', '--plan', 'enterprise', '--per-minute', '10', '--per-day', '5')).toEqual({
      code: 1,
      out: '',
      err: 'error: --per-minute (10) must not exceed --per-day (5): a day holds every minute',
    });
    expect(await run('keys', 'create', '--plan', 'free', '--per-minute', '5')).toMatchObject({ code: 0 });
    const listed = await run('keys', 'list', '--json');
    expect(JSON.parse(listed.out)).toEqual([
      expect.objectContaining({ plan: 'enterprise', limits: { perMinute: 5000, perDay: 1000000 } }),
      expect.objectContaining({ plan: 'free', limits: { perMinute: 5, perDay: 1000 } }),
    ]);
  });

  it('refuses a bad plan with exit code 1', async () => {
    expect(await run('keys', 'create', '--plan', 'gold')).toEqual({
      code: 1,
      out: '',
      err: 'error: --plan must be one of free, pro, business, enterprise',
    });
  });

  it.each([
    [['--per-minute', '-1', '--per-day', '5'], '--per-minute must be a whole number from 1 (got "-1")'],
    [['--per-minute', 'abc', '--per-day', '5'], '--per-minute must be a whole number from 1 (got "abc")'],
    [['--per-minute', '5', '--per-day', '0'], '--per-day must be a whole number from 1 (got "0")'],
    [['--per-minute', '5', '--per-day=2.5'], '--per-day must be a whole number from 1 (got "2.5")'],
  ])('refuses the limits %j naming the flag, with exit code 2 and nothing stored', async (limits, message) => {
    const result = await run('keys', 'create', '--plan', 'enterprise', ...limits);
    expect(result).toMatchObject({ code: 2, out: '' });
    expect(result.err.split('\n')[0]).toBe(`error: ${message}`);
    expect(JSON.parse((await run('keys', 'list', '--json')).out)).toEqual([]);
  });

  it('lists the limits in force for every key: those of its plan, or its custom ones', async () => {
    for (const plan of ['free', 'pro', 'business']) await run('keys', 'create', '--plan', plan);
    await run('keys', 'create', '--plan', 'enterprise', '--per-minute', '7', '--per-day', '700');
    const rows = (await run('keys', 'list')).out
      .split('\n')
      .slice(1)
      .map((line) => line.split(/\s{2,}/).slice(2, 5));
    expect(rows).toEqual([
      ['free', '60', '1000'],
      ['pro', '300', '10000'],
      ['business', '1000', '100000'],
      ['enterprise', '7', '700'],
    ]);
  });

  it.each([
    [['--help']],
    [['keys', '--help']],
    [['keys', 'create', '--help']],
    [['keys', 'list', '-h']],
    [['keys', 'revoke', '--help']],
    [['keys', 'rotate', '--help']],
    [['keys', 'usage', '--help']],
    [['migrate', '--help']],
  ])('answers %j with its help and exit code 0, touching no database', async (argv) => {
    env = { DATABASE_URL: 'mysql://not/even/valid' };
    const result = await run(...argv);
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toContain(argv[0] === '--help' ? 'Usage:' : `petstore ${argv.filter((a) => !a.startsWith('-')).join(' ')}`);
  });

  it('revokes and rotates by id, and says so clearly for an unknown id', async () => {
    await run('keys', 'create', '--plan', 'free');
    const id = /key_[0-9a-f]{16}/.exec((await run('keys', 'list')).out)![0];
    const rotated = await run('keys', 'rotate', id);
    expect(rotated).toMatchObject({ code: 0, out: expect.stringMatching(/^pst_/), err: expect.stringContaining('the old secret no longer works') });
    expect(await run('keys', 'revoke', id)).toMatchObject({ code: 0, out: expect.stringMatching(new RegExp(`^Revoked ${id} at \\S+Z\\.$`)) });
    expect(await run('keys', 'revoke', id)).toMatchObject({
      code: 1,
      out: '',
      err: expect.stringMatching(new RegExp(`^error: ${id} was already revoked at \\S+Z; nothing changed\\.$`)),
    });
    expect((await run('keys', 'list')).out).toMatch(new RegExp(`${id}.*Z\\s+\\S+Z$`, 'm'));
    expect(await run('keys', 'revoke', 'key_nope')).toEqual({ code: 1, out: '', err: 'error: No API key with id key_nope.' });
    expect(await run('keys', 'rotate', 'key_nope')).toEqual({ code: 1, out: '', err: 'error: No API key with id key_nope.' });
    expect(await run('keys', 'rotate', id)).toMatchObject({ code: 1, err: expect.stringContaining('is revoked') });
  });

  it.each([
    [[], 'Usage:'],
    [['keys'], 'keys needs a command'],
    [['keys', 'delete', 'x'], 'unknown keys command "delete"'],
    [['keys', 'create'], 'keys create needs --plan'],
    [['keys', 'create', '--plan', 'free', '--colour', 'red'], "Unknown option '--colour'"],
    [['keys', 'revoke'], 'keys revoke takes exactly one key id'],
    [['frobnicate'], 'unknown command "frobnicate"'],
  ])('answers usage errors %j with exit code 2', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(`${result.out}${result.err}`).toContain(message);
  });

  it('stops on a bad DATABASE_URL with exit code 2', async () => {
    env = { DATABASE_URL: 'mysql://x/y' };
    expect(await run('keys', 'list')).toMatchObject({ code: 2, err: expect.stringContaining('DATABASE_URL="mysql://x/y" is invalid') });
  });

  it('shows the usage of a key, and refuses an unknown id', async () => {
    await run('keys', 'create', '--plan', 'free');
    const id = /key_[0-9a-f]{16}/.exec((await run('keys', 'list')).out)![0];
    const usage = await run('keys', 'usage', id);
    expect(usage.code).toBe(0);
    expect(usage.out).toMatch(
      new RegExp(
        `^${id} on the free plan\nWINDOW +LIMIT +USED +REMAINING +RESET\nminute +60 +0 +60 +\\S+:00Z\nday +1000 +0 +1000 +\\S+T00:00:00Z\nNot banned\\.$`,
      ),
    );
    expect(usage.err).toContain('REDIS_URL is not set');
    expect(JSON.parse((await run('keys', 'usage', id, '--json')).out)).toEqual({
      keyId: id,
      plan: 'free',
      windows: [expect.objectContaining({ name: 'minute', used: 0 }), expect.objectContaining({ name: 'day', used: 0 })],
      bannedUntil: null,
    });
    expect(await run('keys', 'usage', 'key_nope')).toEqual({ code: 1, out: '', err: 'error: No API key with id key_nope.' });
    expect(await run('keys', 'usage')).toMatchObject({ code: 2, err: expect.stringContaining('keys usage takes exactly one key id') });
  });

  it('migrates', async () => {
    expect(await run('migrate')).toEqual({ code: 0, out: 'Database schema is up to date (3 migrations).', err: '' });
  });
});

describeWithRedis('petstore keys usage with the shared Redis store', (redis) => {
  let client: RedisClient;
  beforeAll(async () => {
    client = createRedisClient(redis().url);
    expect(await whenReady(client)).toBe(true);
  }, 30_000);
  afterAll(() => client?.disconnect());

  it('shows what the servers counted, and the ban', async () => {
    const env = { DATABASE_URL: `sqlite:${join(dir, 'usage-redis.db')}`, REDIS_URL: redis().url };
    const run = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(argv, env, { out: (t) => out.push(t), err: (t) => err.push(t) });
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    await run('keys', 'create', '--plan', 'free');
    const id = /key_[0-9a-f]{16}/.exec((await run('keys', 'list')).out)![0];
    // What a server does for this key: one admitted request, then (limit 1, one strike) a rejection and a ban.
    const enforce = new EnforceRateLimit(new RedisRateLimitStore(client), { now: () => new Date() }, { strikes: 1, durationSeconds: 900 });
    await enforce.execute(`key:${id}`, { minute: 1, day: 1000 });
    await expect(enforce.execute(`key:${id}`, { minute: 1, day: 1000 })).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(enforce.execute(`key:${id}`, { minute: 1, day: 1000 })).rejects.toMatchObject({ code: 'key_banned' });

    const usage = await run('keys', 'usage', id, '--json');
    expect(usage).toMatchObject({ code: 0, err: '' });
    const parsed = JSON.parse(usage.out) as { windows: { name: string; used: number }[]; bannedUntil: number };
    expect(parsed.windows[1]).toMatchObject({ name: 'day', used: 1, remaining: 999 });
    expect(parsed.bannedUntil).toBeGreaterThan(Date.now() / 1000 + 800);
    expect((await run('keys', 'usage', id)).out).toMatch(/\nBanned until \S+Z\.$/);
  }, 60_000);
});
