import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { eventually, STOPPED_AT_ONCE, WITH_ADMIN_API } from '@petstore/test-support';
import { describeWithPostgresAndRedis } from '@petstore/test-support/jest';
import { createClient, type Pet, type WaitEvent } from './index.js';
import { issueUnlimitedKey, listAllPets, spawnServer, type ServerProcess } from './testing/builtServer.js';
import { recordingFetch } from './testing/recordingFetch.js';

describeWithPostgresAndRedis('@petstore/client against the built server (PostgreSQL and Redis)', (servers) => {
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    const { postgres, redis } = servers();
    server = await spawnServer({ ...STOPPED_AT_ONCE, ...WITH_ADMIN_API, DATABASE_URL: postgres.url, REDIS_URL: redis.url, NODE_ENV: 'production' });
    key = await issueUnlimitedKey(server);
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('waits while Redis is down mid-run and then succeeds, creating nothing twice', async () => {
    const recorder = recordingFetch();
    const waits: WaitEvent[] = [];
    const client = createClient({ baseUrl: server.url, apiKey: key, fetch: recorder.fetch, onWait: (event) => waits.push(event) });
    const names = Array.from({ length: 30 }, (_, i) => `outage-${i}`);
    const created: Pet[] = [];
    // Three callers, one create after another each, so that the outage falls in the middle of the run.
    const queue = [...names];
    const callers = Promise.all(
      [1, 2, 3].map(async () => {
        for (let name = queue.shift(); name !== undefined; name = queue.shift()) created.push(await client.createPet({ name, categoryId: 1 }));
      }),
    );

    await eventually(() => created.length >= 6, { timeoutMs: 30_000 });
    const pausedAt = Date.now();
    await servers().redis.pause();
    // Down until every caller has been answered 503 and one of them again on its retry (5 s or more), then back.
    await eventually(() => recorder.exchanges.filter((e) => e.status === 503).length >= 4, { timeoutMs: 30_000 });
    const downForMs = Date.now() - pausedAt;
    await servers().redis.start();
    await callers;

    expect(downForMs).toBeGreaterThanOrEqual(5_000);
    expect(created).toHaveLength(30);
    expect(waits.map((w) => w.reason)).toContain('service_unavailable');
    const stored = (await listAllPets(server, key)).filter((p) => p.name.startsWith('outage-'));
    expect(stored.map((p) => p.name).sort()).toEqual([...names].sort());
    expect(stored.map((p) => p.id).sort((a, b) => a - b)).toEqual(created.map((p) => p.id).sort((a, b) => a - b));
  }, 120_000);
});
