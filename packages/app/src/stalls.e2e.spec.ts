import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { eventually, issueKey, spawnServer, STOPPED_AT_ONCE, WITH_ADMIN_API, type ServerProcess } from '@petstore/test-support';
import { describeWithPostgresAndRedis } from '@petstore/test-support/jest';
import { auth, listAllPets, postPet } from './testing/api.js';

// A stalled dependency (SIGSTOP) keeps its connections open and runs what was queued on them when it resumes,
// after the server already answered 503. These tests hold the server to its promise: a 503 had no effect.

/** Clients sending requests one after another until stopped; every answer's status is recorded. */
function stream(workers: number, send: (n: number) => Promise<Response>) {
  const answers: { n: number; status: number; reset: string | null; body: unknown }[] = [];
  let running = true;
  let n = 0;
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      const mine = n++;
      const response = await send(mine);
      answers.push({
        n: mine,
        status: response.status,
        reset: response.headers.get('x-ratelimit-reset'),
        body: await response.json().catch(() => null),
      });
    }
  });
  return {
    answers,
    count: (status: number) => answers.filter((a) => a.status === status).length,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

describeWithPostgresAndRedis('a dependency that stalls and resumes', (servers) => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await spawnServer({
      ...STOPPED_AT_ONCE,
      ...WITH_ADMIN_API,
      DATABASE_URL: servers().postgres.url,
      REDIS_URL: servers().redis.url,
      DATABASE_TIMEOUT_MS: '1000',
      KEY_CACHE_TTL_MS: '5000',
      NODE_ENV: 'production',
    });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  const newKey = async (perMinute: number) => (await issueKey(server, { plan: 'enterprise', perMinute, perDay: 100_000 })).key;

  it('Redis: requests answered 503 during the stall spend no quota and earn no ban', async () => {
    const key = await newKey(40);
    const list = () => fetch(`${server.url}/pets?limit=1`, { headers: auth(key) });
    const requests = stream(2, list);
    await eventually(() => requests.count(200) >= 5, { timeoutMs: 20_000 });
    servers().redis.freeze();
    let stalled: number[];
    try {
      // Far more than the quota left and the 10 strikes that ban: executed late, they would exhaust and ban the key.
      stalled = await Promise.all(Array.from({ length: 60 }, () => list().then((r) => r.status)));
    } finally {
      servers().redis.thaw();
    }
    await requests.stop();
    expect(stalled).toEqual(Array(60).fill(503));
    expect(requests.count(503)).toBeGreaterThan(0);
    // The runbook's sign of it (docs/operations.md, "Redis down"): a stall, not only a refused connection.
    await eventually(() => /"level":40,.*"msg":"rate-limit store \(Redis\) unreachable: answering 503"/.test(server.output()), {
      timeoutMs: 10_000,
    });
    expect(requests.answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);

    const after = await list();
    expect(after.status).toBe(200);
    // Only the 200s counted in the same minute window as this request (the wall clock may have turned a minute).
    const admittedInWindow = requests.answers.filter((a) => a.status === 200 && a.reset === after.headers.get('x-ratelimit-reset')).length;
    expect(after.headers.get('x-ratelimit-remaining')).toBe(String(40 - admittedInWindow - 1));
  }, 60_000);

  it('PostgreSQL: no pet answered 503 exists afterwards, and a retry with the same Idempotency-Key succeeds at once', async () => {
    const key = await newKey(100_000);
    const creates = stream(3, (n) => postPet(server, key, `stream ${n}`));
    await eventually(() => creates.count(201) >= 20, { timeoutMs: 20_000 });
    const idempotent = (idempotencyKey = 'stalled-order') =>
      fetch(`${server.url}/pets`, {
        method: 'POST',
        headers: { ...auth(key), 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
        body: JSON.stringify({ name: idempotencyKey === 'stalled-order' ? 'Idempotent' : 'Warm-up', categoryId: 3 }),
      });
    // Caches the key for the next 5 s and does the once-a-minute purge, so the stalled request stalls on its claim.
    expect((await idempotent('warm-up')).status).toBe(201);
    servers().postgres.freeze();
    let duringStall: Response;
    try {
      duringStall = await idempotent();
      await eventually(() => creates.count(503) >= 3, { timeoutMs: 20_000 });
    } finally {
      servers().postgres.thaw();
    }
    expect(duringStall.status).toBe(503);
    await creates.stop();

    const retried = Date.now();
    const retry = await idempotent();
    expect(retry.status).toBe(201);
    // At once: not after the stalled claim goes stale (60 s).
    expect(Date.now() - retried).toBeLessThan(10_000);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();

    const stored = await listAllPets(server, key);
    const names = new Set(stored.map((p) => p.name));
    for (const answer of creates.answers) {
      if (answer.status === 201) expect(names.has(`stream ${answer.n}`)).toBe(true);
      else expect({ answer, stored: names.has(`stream ${answer.n}`) }).toEqual({ answer: expect.objectContaining({ status: 503 }), stored: false });
    }
    expect(stored.filter((p) => p.name === 'Idempotent')).toHaveLength(1);
  }, 90_000);
});
