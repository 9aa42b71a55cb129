import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { postgresBinDir, startPostgresForTests, type RunningPostgres } from '@petstore/test-support';
import { redisServerBinary, startRedisForTests, type RunningRedis } from '@petstore/test-support';
import { auth, awayFromMinuteEnd } from './testing/api.js';
import { runCliProcess, spawnServer, type ServerProcess } from './testing/processes.js';

const available = (postgresBinDir() !== null && redisServerBinary() !== null) || Boolean(process.env['CI']);

(available ? describe : describe.skip)('several instances sharing PostgreSQL and Redis', () => {
  let postgres: RunningPostgres | null;
  let redis: RunningRedis | null;
  let a: ServerProcess;
  let b: ServerProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgresForTests(), startRedisForTests()]);
    env = { DATABASE_URL: postgres!.url, REDIS_URL: redis!.url, NODE_ENV: 'production' };
    // Started together: the advisory lock lets one migrate while the other waits.
    [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });

  const newKey = async (plan = 'free') => {
    const created = await runCliProcess(['keys', 'create', '--plan', plan], { DATABASE_URL: postgres!.url });
    expect(created.code).toBe(0);
    return { secret: created.stdout.trim(), id: /(key_[0-9a-f]{16})/.exec(created.stderr)![1]! };
  };

  it('gives a Free key exactly 60 non-429 answers per minute in total across both instances', async () => {
    const { secret } = await newKey();
    await awayFromMinuteEnd(15);
    const statuses = await Promise.all(
      Array.from({ length: 90 }, (_, i) => fetch(`${(i % 2 ? a : b).url}/pets`, { headers: auth(secret) }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s !== 429)).toHaveLength(60);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
  }, 30_000);

  it('lists on one instance a pet created on the other', async () => {
    const { secret } = await newKey('pro');
    const created = await fetch(`${a.url}/pets`, { method: 'POST', headers: { ...auth(secret), 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Shared', categoryId: 4 }) });
    const pet = (await created.json()) as { id: number };
    const listed = (await (await fetch(`${b.url}/pets?limit=100`, { headers: auth(secret) })).json()) as { id: number }[];
    expect(listed).toContainEqual({ id: pet.id, name: 'Shared', categoryId: 4, status: 'available' });
  });

  it('gives the same content the same ETag on both instances and after a restart, so a 304 comes from either', async () => {
    const { secret } = await newKey('pro');
    for (const name of ['Tag one', 'Tag two']) {
      const created = await fetch(`${a.url}/pets`, { method: 'POST', headers: { ...auth(secret), 'Content-Type': 'application/json' }, body: JSON.stringify({ name, categoryId: 9 }) });
      expect(created.status).toBe(201);
    }
    const newest = (await (await fetch(`${a.url}/pets?status=available&limit=100`, { headers: auth(secret) })).json()) as { id: number }[];
    const paths = ['/pets?limit=1', `/pets/${newest.at(-1)!.id}`];
    const tagsOn = (server: ServerProcess) =>
      Promise.all(paths.map(async (path) => (await fetch(`${server.url}${path}`, { headers: auth(secret) })).headers.get('etag')));
    const onA = await tagsOn(a);
    expect(onA).toEqual([expect.stringMatching(/^"[A-Za-z0-9_-]{22}"$/), expect.stringMatching(/^"[A-Za-z0-9_-]{22}"$/)]);
    expect(await tagsOn(b)).toEqual(onA);
    const fromB = await fetch(`${b.url}${paths[0]}`, { headers: { ...auth(secret), 'If-None-Match': onA[0]! } });
    expect(fromB.status).toBe(304);
    expect(await fromB.text()).toBe('');

    await a.stop();
    a = await spawnServer(env);
    expect(await tagsOn(a)).toEqual(onA);
  }, 60_000);

  it('stops a key revoked through the CLI on both instances within 5 seconds', async () => {
    const { secret, id } = await newKey('pro');
    expect((await fetch(`${a.url}/pets`, { headers: auth(secret) })).status).toBe(200);
    expect((await fetch(`${b.url}/pets`, { headers: auth(secret) })).status).toBe(200);
    expect((await runCliProcess(['keys', 'revoke', id], { DATABASE_URL: postgres!.url })).code).toBe(0);
    const revokedAt = Date.now();
    const rejectedAfter = async (server: ServerProcess) => {
      while (Date.now() - revokedAt < 6_000) {
        if ((await fetch(`${server.url}/pets`, { headers: auth(secret) })).status === 401) return Date.now() - revokedAt;
        await new Promise((r) => setTimeout(r, 100));
      }
      return Infinity;
    };
    const [onA, onB] = await Promise.all([rejectedAfter(a), rejectedAfter(b)]);
    expect(onA).toBeLessThan(5_000);
    expect(onB).toBeLessThan(5_000);
  }, 20_000);

  it('fails closed while Redis is down (503 with Retry-After, /readyz 503) and recovers by itself', async () => {
    const { secret } = await newKey('pro');
    expect((await fetch(`${a.url}/pets`, { headers: auth(secret) })).status).toBe(200);
    await redis!.pause();
    try {
      const down = await fetch(`${a.url}/pets`, { headers: auth(secret) });
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({ code: 'service_unavailable', status: 503, message: expect.stringContaining('rate-limit store') });
      expect(down.headers.get('retry-after')).toBe('5');
      expect((await fetch(a.url.replace('/v1', '/readyz'))).status).toBe(503);
      expect((await fetch(a.url.replace('/v1', '/livez'))).status).toBe(200);
    } finally {
      await redis!.start();
    }
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      status = (await fetch(`${a.url}/pets`, { headers: auth(secret) })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
    expect((await fetch(b.url.replace('/v1', '/readyz'))).status).toBe(200);
  }, 30_000);
});
