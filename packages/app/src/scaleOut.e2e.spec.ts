import { expect, it } from '@jest/globals';
import { eventually, issueKey, runCli, spawnServer, WITH_ADMIN_API, type KeySettings, type ServerProcess } from '@petstore/test-support';
import { describeWithPostgresAndRedis } from '@petstore/test-support/jest';
import { auth, burstUntilLimited } from './testing/api.js';
import { twoInstances } from './testing/twoInstances.js';

describeWithPostgresAndRedis('several instances sharing PostgreSQL and Redis', (servers) => {
  const instances = twoInstances(() => ({ ...WITH_ADMIN_API, DATABASE_URL: servers().postgres.url, REDIS_URL: servers().redis.url }));

  const newKey = async (plan: KeySettings['plan'] = 'free') => {
    const { key, id } = await issueKey(instances.a, { plan });
    return { secret: key, id };
  };

  it('gives a Free key exactly 60 non-429 answers per minute in total across both instances', async () => {
    const { secret } = await newKey();
    const window = await burstUntilLimited(() =>
      Array.from({ length: 90 }, (_, i) => fetch(`${(i % 2 ? instances.a : instances.b).url}/pets`, { headers: auth(secret) })),
    );
    expect(window.filter((answer) => answer.status !== 429)).toHaveLength(60);
    expect(window.filter((answer) => answer.status === 200)).toHaveLength(60);
  }, 60_000);

  it('never bans a key for one burst: 100 requests at once at 20 a minute across both instances, 20 answered, no ban', async () => {
    const { key: secret } = await issueKey(instances.a, { plan: 'free', perMinute: 20 });
    const codes: (string | null)[] = [];
    const window = await burstUntilLimited(() =>
      Array.from({ length: 100 }, async (_, i) => {
        const response = await fetch(`${(i % 2 ? instances.a : instances.b).url}/pets`, { headers: auth(secret) });
        codes.push(response.status === 429 ? ((await response.clone().json()) as { code: string }).code : null);
        return response;
      }),
    );
    expect(window.filter((answer) => answer.status === 200)).toHaveLength(20);
    expect(codes).not.toContain('key_banned');
  }, 60_000);

  it('lists on one instance a pet created on the other', async () => {
    const { secret } = await newKey('pro');
    const created = await fetch(`${instances.a.url}/pets`, {
      method: 'POST',
      headers: { ...auth(secret), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Shared', categoryId: 4 }),
    });
    const pet = (await created.json()) as { id: number };
    const listed = (await (await fetch(`${instances.b.url}/pets?limit=100`, { headers: auth(secret) })).json()) as { id: number }[];
    expect(listed).toContainEqual({ id: pet.id, name: 'Shared', categoryId: 4, status: 'available' });
  });

  it('gives the same content the same ETag on both instances and after a restart, so a 304 comes from either', async () => {
    const { secret } = await newKey('pro');
    for (const name of ['Tag one', 'Tag two']) {
      const created = await fetch(`${instances.a.url}/pets`, {
        method: 'POST',
        headers: { ...auth(secret), 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, categoryId: 9 }),
      });
      expect(created.status).toBe(201);
    }
    const newest = (await (await fetch(`${instances.a.url}/pets?status=available&limit=100`, { headers: auth(secret) })).json()) as { id: number }[];
    const paths = ['/pets?limit=1', `/pets/${newest.at(-1)!.id}`];
    const tagsOn = (server: ServerProcess) =>
      Promise.all(paths.map(async (path) => (await fetch(`${server.url}${path}`, { headers: auth(secret) })).headers.get('etag')));
    const onA = await tagsOn(instances.a);
    // A page's tag is made of the ids and versions it holds; a pet's names its id and version (docs/http-api.md).
    expect(onA).toEqual([expect.stringMatching(/^"[\x21\x23-\x7E]{1,80}"$/), expect.stringMatching(/^"p1\.[0-9a-z]+\.1"$/)]);
    expect(await tagsOn(instances.b)).toEqual(onA);
    const fromB = await fetch(`${instances.b.url}${paths[0]}`, { headers: { ...auth(secret), 'If-None-Match': onA[0]! } });
    expect(fromB.status).toBe(304);
    expect(await fromB.text()).toBe('');

    await instances.a.stop();
    instances.a = await spawnServer(instances.env);
    expect(await tagsOn(instances.a)).toEqual(onA);
  }, 60_000);

  it('stops a key revoked through the CLI on both instances within 5 seconds', async () => {
    const { secret, id } = await newKey('pro');
    expect((await fetch(`${instances.a.url}/pets`, { headers: auth(secret) })).status).toBe(200);
    expect((await fetch(`${instances.b.url}/pets`, { headers: auth(secret) })).status).toBe(200);
    expect((await runCli(['keys', 'revoke', id], { DATABASE_URL: servers().postgres.url })).code).toBe(0);
    const rejected = (server: ServerProcess) =>
      eventually(async () => (await fetch(`${server.url}/pets`, { headers: auth(secret) })).status === 401, { timeoutMs: 5_000 });
    await Promise.all([rejected(instances.a), rejected(instances.b)]);
  }, 30_000);

  it('fails closed while Redis is down (503 with Retry-After, /readyz 503) and recovers by itself', async () => {
    const { secret } = await newKey('pro');
    expect((await fetch(`${instances.a.url}/pets`, { headers: auth(secret) })).status).toBe(200);
    await servers().redis.pause();
    try {
      const down = await fetch(`${instances.a.url}/pets`, { headers: auth(secret) });
      expect(down.status).toBe(503);
      expect(await down.json()).toEqual({ code: 'service_unavailable', status: 503, message: expect.stringContaining('rate-limit store') });
      expect(down.headers.get('retry-after')).toBe('5');
      expect((await fetch(instances.a.url.replace('/v1', '/readyz'))).status).toBe(503);
      expect((await fetch(instances.a.url.replace('/v1', '/livez'))).status).toBe(200);
    } finally {
      await servers().redis.start();
    }
    await eventually(async () => (await fetch(`${instances.a.url}/pets`, { headers: auth(secret) })).status === 200);
    expect((await fetch(instances.b.url.replace('/v1', '/readyz'))).status).toBe(200);
  }, 30_000);
});
