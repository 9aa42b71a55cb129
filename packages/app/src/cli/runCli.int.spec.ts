import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from '@jest/globals';
import { EnforceRateLimit, SystemClock } from '@petstore/core';
import { closeRedisClient, createRedisClient, RedisRateLimitStore, whenReady } from '@petstore/rate-limit-redis';
import { freePort } from '@petstore/test-support';
import { clientForSuite, describeWithRedis } from '@petstore/test-support/jest';
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
      /^ID\s+NAME\s+PLAN\s+PER-MINUTE\s+PER-DAY\s+SCOPES\s+STATUS\s+EXPIRES\s+LAST-USED\s+CREATED\s+REVOKED\nkey_[0-9a-f]{16}\s+shelter north\s+pro\s+300\s+10000\s+pets:read,pets:write\s+active\s+-\s+-\s+\S+Z\s+-$/,
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
    expect((JSON.parse(listed.out) as { keys: unknown[] }).keys).toEqual([
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
    [['--per-minute', '-1', '--per-day', '5'], '--per-minute must be a whole number from 1 to 999999999999999 (got "-1")'],
    [['--per-minute', 'abc', '--per-day', '5'], '--per-minute must be a whole number from 1 to 999999999999999 (got "abc")'],
    [['--per-minute', '5', '--per-day', '0'], '--per-day must be a whole number from 1 to 999999999999999 (got "0")'],
    [['--per-minute', '5', '--per-day=2.5'], '--per-day must be a whole number from 1 to 999999999999999 (got "2.5")'],
    [['--per-minute', '5', '--per-day', '1000000000000000'], '--per-day must be a whole number from 1 to 999999999999999 (got "1000000000000000")'],
  ])('refuses the limits %j naming the flag, with exit code 2 and nothing stored', async (limits, message) => {
    const result = await run('keys', 'create', '--plan', 'enterprise', ...limits);
    expect(result).toMatchObject({ code: 2, out: '' });
    expect(result.err.split('\n')[0]).toBe(`error: ${message}`);
    expect(JSON.parse((await run('keys', 'list', '--json')).out)).toEqual({ keys: [], nextCursor: null });
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
    [['keys', 'get', '--help']],
    [['keys', 'update', '-h']],
    [['keys', 'unban', '--help']],
    [['keys', 'audit', '--help']],
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
    const rotated = await run('keys', 'rotate', id, '--grace', '0');
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

  it('says in one line, with exit code 1, that the database cannot be reached (its password not shown)', async () => {
    const port = await freePort();
    env = { DATABASE_URL: `postgres://petstore:s3cret-pw@127.0.0.1:${port}/petstore` };
    const result = await run('keys', 'list');
    expect(result).toMatchObject({ code: 1, out: '' });
    expect(result.err).toMatch(new RegExp(`^error: cannot use the database or Redis: .*ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
    expect(result.err.split('\n')).toHaveLength(1);
    expect(result.err).not.toContain('s3cret-pw');
  });

  it('stops on a bad DATABASE_POOL_MODE with exit code 2, naming it', async () => {
    env = { ...env, DATABASE_POOL_MODE: 'statement' };
    expect(await run('keys', 'list')).toEqual({
      code: 2,
      out: '',
      err: 'error: DATABASE_POOL_MODE="statement" is invalid: expected one of session, transaction',
    });
  });

  it('shows the usage of a key, and refuses an unknown id', async () => {
    await run('keys', 'create', '--plan', 'free');
    const id = /key_[0-9a-f]{16}/.exec((await run('keys', 'list')).out)![0];
    const usage = await run('keys', 'usage', id);
    expect(usage.code).toBe(0);
    expect(usage.out).toMatch(
      new RegExp(
        `^${id} on the free plan\nWINDOW +LIMIT +USED +REMAINING +RESET\nminute +60 +0 +60 +\\S+:00Z\nday +1000 +0 +1000 +\\S+T00:00:00Z\nNot banned\\.\nLast used: never\\.\nDAY +REQUESTS\n(\\d{4}-\\d\\d-\\d\\d +0\n){29}\\d{4}-\\d\\d-\\d\\d +0$`,
      ),
    );
    expect(usage.err).toContain('none of REDIS_URL, REDIS_CLUSTER_NODES and REDIS_SENTINELS is set');
    expect(JSON.parse((await run('keys', 'usage', id, '--json')).out)).toEqual({
      keyId: id,
      plan: 'free',
      windows: [expect.objectContaining({ name: 'minute', used: 0 }), expect.objectContaining({ name: 'day', used: 0 })],
      bannedUntil: null,
      lastUsedAt: null,
      days: expect.arrayContaining([{ day: new Date().toISOString().slice(0, 10), requests: 0 }]),
    });
    expect(await run('keys', 'usage', 'key_nope')).toEqual({ code: 1, out: '', err: 'error: No API key with id key_nope.' });
    expect(await run('keys', 'usage')).toMatchObject({ code: 2, err: expect.stringContaining('keys usage takes exactly one key id') });
  });

  describe('keys as a product', () => {
    const future = '2030-01-02T03:04:05.000Z';
    async function createdId(...flags: string[]): Promise<string> {
      const created = await run('keys', 'create', '--plan', 'pro', '--json', ...flags);
      expect(created.code).toBe(0);
      return (JSON.parse(created.out) as { id: string }).id;
    }
    const getJson = async (id: string) => JSON.parse((await run('keys', 'get', id, '--json')).out) as Record<string, unknown>;

    it('creates a key with scopes and an expiry, shown with its secret once in --json, and by get', async () => {
      const created = await run('keys', 'create', '--plan', 'pro', '--name', 'reader', '--scopes', 'pets:read', '--expires-at', future, '--json');
      expect(created.code).toBe(0);
      const shown = JSON.parse(created.out) as Record<string, unknown>;
      expect(shown).toMatchObject({ name: 'reader', plan: 'pro', scopes: ['pets:read'], expiresAt: future, disabled: false, status: 'active' });
      expect(shown['key']).toMatch(/^pst_[0-9A-Za-z]{36}$/);
      const { key, ...view } = shown;
      expect(await getJson(shown['id'] as string)).toEqual(view);
      const details = await run('keys', 'get', shown['id'] as string);
      expect(details.code).toBe(0);
      expect(details.out).toMatch(/^scopes: +pets:read$/m);
      expect(details.out).toMatch(new RegExp(`^expires: +${future}$`, 'm'));
      expect(details.out).toMatch(/^last used: +never$/m);
      expect(details.out).not.toContain(key);
    });

    it.each([
      [['--scopes', 'pets:admin'], 2, '--scopes must be a comma-separated list of distinct scopes among pets:read, pets:write (got "pets:admin")'],
      [['--scopes', ''], 2, '--scopes must be a comma-separated list of distinct scopes among pets:read, pets:write (got "")'],
      [
        ['--scopes', 'pets:read,pets:read'],
        2,
        '--scopes must be a comma-separated list of distinct scopes among pets:read, pets:write (got "pets:read,pets:read")',
      ],
      [
        ['--expires-at', 'tomorrow'],
        2,
        '--expires-at must be an ISO 8601 date and time with its offset, such as 2027-01-01T00:00:00Z (got "tomorrow")',
      ],
      [['--expires-at', '2099-02-30T00:00:00Z'], 2, '--expires-at must be an ISO 8601 date and time with its offset'],
      [['--expires-at', '2020-01-01T00:00:00Z'], 1, '--expires-at must be in the future'],
      [['--expires-at', 'never'], 2, '--expires-at must be an ISO 8601 date and time with its offset, such as 2027-01-01T00:00:00Z (got "never")'],
      [['--per-minute', '10', '--per-day', '100', '--per-minute', '20'], 2, '--per-minute is given twice: give it once'],
      [['--plan', 'free'], 2, '--plan is given twice: give it once'],
    ])('refuses keys create %j with exit code %i, storing nothing', async (flags, code, message) => {
      const result = await run('keys', 'create', '--plan', 'pro', ...flags);
      expect(result).toMatchObject({ code, out: '' });
      expect(result.err.split('\n')[0]).toContain(`error: ${message}`);
      expect(JSON.parse((await run('keys', 'list', '--json')).out)).toEqual({ keys: [], nextCursor: null });
    });

    it('updates only the settings given, and says so for the running servers', async () => {
      const id = await createdId('--name', 'before');
      const updated = await run('keys', 'update', id, '--name', 'after', '--plan', 'business', '--per-minute', '50', '--per-day', '500', '--json');
      expect(updated).toMatchObject({ code: 0, err: expect.stringContaining(`Updated ${id}: running servers apply it within 2000 ms.`) });
      expect(JSON.parse(updated.out)).toMatchObject({ name: 'after', plan: 'business', limits: { perMinute: 50, perDay: 500 } });
      await run('keys', 'update', id, '--scopes', 'pets:write', '--expires-at', future, '--disable');
      expect(await getJson(id)).toMatchObject({ name: 'after', scopes: ['pets:write'], expiresAt: future, disabled: true, status: 'disabled' });
      await run('keys', 'update', id, '--plan-limits', '--expires-at', 'never', '--enable', '--scopes', 'pets:write,pets:read');
      expect(await getJson(id)).toMatchObject({
        limits: { perMinute: 1000, perDay: 100000 },
        limitOverrides: { perMinute: null, perDay: null },
        expiresAt: null,
        disabled: false,
        status: 'active',
        scopes: ['pets:read', 'pets:write'],
      });
    });

    it.each([
      [['--per-minute', '5'], 2, '--per-minute and --per-day go together: give both'],
      [['--per-day', '5'], 2, '--per-minute and --per-day go together: give both'],
      [['--plan-limits', '--per-minute', '5', '--per-day', '50'], 2, '--plan-limits drops the custom limits'],
      [['--disable', '--enable'], 2, 'give --disable or --enable, not both'],
      [[], 2, 'keys update needs a setting to change'],
      [['--scopes', 'pets'], 2, '--scopes must be a comma-separated list'],
      [['--per-minute', '0', '--per-day', '5'], 2, '--per-minute must be a whole number from 1 to 999999999999999 (got "0")'],
      [['--plan', 'gold'], 1, '--plan must be one of free, pro, business, enterprise'],
      [['--plan', 'enterprise'], 1, '--per-minute is required for enterprise keys'],
      [['--per-minute', '50', '--per-day', '5'], 1, '--per-minute (50) must not exceed --per-day (5)'],
      [['--expires-at', '2001-01-01T00:00:00Z'], 1, '--expires-at must be in the future'],
      [
        ['--expires-at', '2099-13-01T00:00:00Z'],
        2,
        '--expires-at must be an ISO 8601 date and time with its offset, such as 2027-01-01T00:00:00Z, or never (got "2099-13-01T00:00:00Z")',
      ],
      [['--name', 'a', '--name', 'b'], 2, '--name is given twice: give it once'],
      [['--name', 'a\u0007b'], 1, '--name must not contain control characters'],
      [['--name', 'a\u202Eb'], 1, '--name must not contain bidirectional controls or line or paragraph separators'],
      [['--colour', 'red'], 2, "Unknown option '--colour'"],
    ])('refuses keys update %j with exit code %i, changing nothing', async (flags, code, message) => {
      const id = await createdId();
      const before = await getJson(id);
      const result = await run('keys', 'update', id, ...flags);
      expect(result).toMatchObject({ code, out: '' });
      expect(result.err.split('\n')[0]).toContain(`error: ${message}`);
      expect(await getJson(id)).toEqual(before);
      expect(JSON.parse((await run('keys', 'audit', id, '--json')).out).events).toHaveLength(1);
    });

    it.each([['get'], ['update', '--name', 'x'], ['rotate'], ['revoke'], ['usage']])(
      'answers keys %s with an unknown id with exit code 1 and a clear message',
      async (command, ...flags) => {
        expect(await run('keys', command, 'key_nope', ...flags)).toMatchObject({ code: 1, out: '', err: 'error: No API key with id key_nope.' });
      },
    );

    it('refuses to change a revoked key', async () => {
      const id = await createdId();
      await run('keys', 'revoke', id);
      expect(await run('keys', 'update', id, '--name', 'x')).toMatchObject({ code: 1, err: expect.stringContaining('is revoked') });
    });

    it('rotates with a grace period: the old secret works until its end (24 h by default)', async () => {
      const id = await createdId();
      const before = Date.now();
      const rotated = await run('keys', 'rotate', id, '--json');
      expect(rotated.code).toBe(0);
      const shown = JSON.parse(rotated.out) as { key: string; previousSecretExpiresAt: string };
      expect(shown.key).toMatch(/^pst_/);
      expect(Date.parse(shown.previousSecretExpiresAt) - before).toBeGreaterThanOrEqual(86_400_000);
      expect(Date.parse(shown.previousSecretExpiresAt) - before).toBeLessThan(86_400_000 + 10_000);
      const ninety = await run('keys', 'rotate', id, '--grace', '90s');
      expect(ninety.err).toMatch(new RegExp(`^Rotated ${id}: the old secret works until \\S+Z\\. The new secret is shown only once\\.$`));
      expect(Date.parse((await getJson(id))['previousSecretExpiresAt'] as string) - Date.now()).toBeLessThanOrEqual(90_000);
    });

    it.each([['1x'], ['-1'], ['31d'], ['24'], ['1.5h'], [''], ['0s1']])('refuses --grace %j with exit code 2, rotating nothing', async (grace) => {
      const id = await createdId();
      const result = await run('keys', 'rotate', id, '--grace', grace);
      expect(result).toMatchObject({ code: 2, out: '' });
      expect(result.err.split('\n')[0]).toBe(`error: --grace must be a duration from 0 to 30d, such as 0, 90s, 30m, 24h or 7d (got "${grace}")`);
      expect((await getJson(id))['previousSecretExpiresAt']).toBeNull();
    });

    it("refuses keys unban without REDIS_URL with exit code 2: the bans are in the servers' memory; nothing is audited", async () => {
      const id = await createdId();
      const result = await run('keys', 'unban', id);
      expect(result).toMatchObject({ code: 2, out: '' });
      expect(result.err).toBe(
        "error: keys unban needs the servers' Redis settings (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS): " +
          'without Redis each server keeps its bans in its own memory, out of this ' +
          "command's reach. Lift the ban with the server's admin API (POST /admin/v1/keys/ID/unban), or let it end.",
      );
      expect(JSON.parse((await run('keys', 'audit', id, '--json')).out).events.map((e: { action: string }) => e.action)).toEqual(['key.created']);
    });

    it('shows the requests per day over --days days, and refuses a bad --days', async () => {
      const id = await createdId();
      const usage = JSON.parse((await run('keys', 'usage', id, '--days', '3', '--json')).out) as { days: { day: string }[] };
      expect(usage.days.map(({ day }) => day)).toEqual([2, 1, 0].map((ago) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10)));
      for (const days of ['0', '92', 'abc', '-3']) {
        const result = await run('keys', 'usage', id, '--days', days);
        expect(result).toMatchObject({ code: 2, out: '' });
        expect(result.err.split('\n')[0]).toBe(`error: --days must be a whole number from 1 to 91 (got "${days}")`);
      }
    });

    it('lists keys a page at a time and prints the command for the next page', async () => {
      const ids = [await createdId(), await createdId(), await createdId()];
      const first = await run('keys', 'list', '--limit', '2');
      expect(
        first.out
          .split('\n')
          .slice(1)
          .map((line) => line.split(' ')[0]),
      ).toEqual(ids.slice(0, 2));
      const next = /^More keys: petstore keys list --limit 2 --after (\S+)$/.exec(first.err);
      expect(next).not.toBeNull();
      const second = await run('keys', 'list', '--limit', '2', '--after', next![1]!);
      expect(second).toMatchObject({ code: 0, err: '' });
      expect(
        second.out
          .split('\n')
          .slice(1)
          .map((line) => line.split(' ')[0]),
      ).toEqual(ids.slice(2));
      for (const limit of ['0', '101', '1e2', 'ten']) {
        expect(await run('keys', 'list', '--limit', limit)).toMatchObject({
          code: 2,
          err: expect.stringMatching(new RegExp(`^error: --limit must be a whole number from 1 to 100 \\(got "${limit}"\\)`)),
        });
      }
      expect(await run('keys', 'list', '--after', 'bogus')).toMatchObject({ code: 1, err: expect.stringMatching(/^error: --after is invalid/) });
    });

    it('records every change in the audit trail, newest first, with actor cli and never a secret', async () => {
      const created = await run('keys', 'create', '--plan', 'free', '--name', 'audited');
      const id = /Created (key_[0-9a-f]{16})/.exec(created.err)![1]!;
      await run('keys', 'update', id, '--plan', 'pro', '--disable');
      const rotated = await run('keys', 'rotate', id, '--grace', '0');
      await run('keys', 'revoke', id);
      await createdId();

      const audit = JSON.parse((await run('keys', 'audit', id, '--json')).out) as {
        events: { actor: string; action: string; keyId: string; changes: Record<string, unknown> }[];
        nextCursor: string | null;
      };
      expect(audit.nextCursor).toBeNull();
      expect(audit.events.map((e) => [e.actor, e.action, e.keyId])).toEqual(
        ['key.revoked', 'key.rotated', 'key.updated', 'key.created'].map((action) => ['cli', action, id]),
      );
      expect(audit.events[2]!.changes).toEqual({ plan: { before: 'free', after: 'pro' }, disabled: { before: false, after: true } });

      const text = await run('keys', 'audit', id);
      expect(text.out.split('\n')[0]).toMatch(/^AT\s+ACTOR\s+ACTION\s+SUBJECT\s+CHANGES$/);
      expect(text.out).toMatch(new RegExp(`\\S+Z  cli    key.updated  ${id}  plan: free -> pro; disabled: false -> true`));
      for (const secret of [created.out, rotated.out]) expect(text.out).not.toContain(secret);

      const all = await run('keys', 'audit', '--limit', '2');
      expect(all.out.split('\n')).toHaveLength(3);
      const older = /^Older events: petstore keys audit --limit 2 --before (\S+)$/.exec(all.err);
      expect(older).not.toBeNull();
      const rest = JSON.parse((await run('keys', 'audit', '--limit', '100', '--before', older![1]!, '--json')).out) as { events: unknown[] };
      expect(rest.events).toHaveLength(3);
      expect(await run('keys', 'audit', '--before', 'bogus')).toMatchObject({ code: 1, err: expect.stringMatching(/^error: --before is invalid/) });
      expect(await run('keys', 'audit', 'a', 'b')).toMatchObject({ code: 2, err: expect.stringContaining('keys audit takes at most one key id') });
      expect(await run('keys', 'audit', '--limit', '101')).toMatchObject({ code: 2, err: expect.stringContaining('--limit must be a whole number') });
    });
  });

  it('migrates', async () => {
    expect(await run('migrate')).toEqual({ code: 0, out: 'Database schema is up to date (10 migrations).', err: '' });
  });
});

describeWithRedis('petstore keys usage with the shared Redis store', (redis) => {
  const client = clientForSuite({ open: () => createRedisClient(redis().url), ready: whenReady, close: closeRedisClient });

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
    const enforce = new EnforceRateLimit(new RedisRateLimitStore(client()), new SystemClock(), {
      strikes: 1,
      durationSeconds: 900,
      strikeIntervalSeconds: 0,
    });
    await enforce.execute(`key:${id}`, { minute: 1, day: 1000 });
    await expect(enforce.execute(`key:${id}`, { minute: 1, day: 1000 })).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(enforce.execute(`key:${id}`, { minute: 1, day: 1000 })).rejects.toMatchObject({ code: 'key_banned' });

    const usage = await run('keys', 'usage', id, '--json');
    expect(usage).toMatchObject({ code: 0, err: '' });
    const parsed = JSON.parse(usage.out) as { windows: { name: string; used: number }[]; bannedUntil: number };
    expect(parsed.windows[1]).toMatchObject({ name: 'day', used: 1, remaining: 999 });
    expect(parsed.bannedUntil).toBeGreaterThan(Date.now() / 1000 + 800);
    expect((await run('keys', 'usage', id)).out).toMatch(/\nBanned until \S+Z\.\n/);
    expect(await run('keys', 'unban', id)).toEqual({ code: 0, out: `Lifted the ban on ${id}.`, err: '' });
    expect(await run('keys', 'unban', id)).toEqual({ code: 0, out: `${id} was not banned; nothing to lift.`, err: '' });
    expect(await run('keys', 'unban', 'key_nope')).toEqual({ code: 1, out: '', err: 'error: No API key with id key_nope.' });
    expect((await run('keys', 'usage', id)).out).toMatch(/\nNot banned\.\n/);
    const audit = JSON.parse((await run('keys', 'audit', id, '--json')).out) as { events: { action: string; changes: object }[] };
    expect(audit.events[1]).toMatchObject({ action: 'key.unbanned', changes: { bannedUntil: { before: expect.any(String), after: null } } });
  }, 60_000);
});
