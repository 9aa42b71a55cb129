import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { eventually, issueKey, spawnServer, STOPPED_AT_ONCE, WITH_ADMIN_API, type KeySettings, type ServerProcess } from '@petstore/test-support';
import { describeWithPgBouncerAndRedis } from '@petstore/test-support/jest';
import { auth, burstUntilLimited, listAllPets, postPet } from './testing/api.js';

interface Answer {
  kind: 'create' | 'list';
  status: number;
  code: string | null;
  retryAfter: string | null;
  /** X-RateLimit-Reset: the binding window that counted the request. */
  reset: string | null;
  sentAt: number;
  answeredAt: number;
  /** The name sent, for a create. */
  name?: string;
  /** The created pet, for a 201. */
  pet?: { id: number; name: string };
}

/** Creates (named `prefix n`) and random list pages from `workers` clients at once, as fast as answered, until `stop()`. */
function runLoad(server: ServerProcess, key: string, prefix: string, workers: number) {
  const answers: Answer[] = [];
  let running = true;
  let n = 0;
  const send = async (kind: Answer['kind']): Promise<Answer> => {
    const sentAt = Date.now();
    const name = `${prefix} ${n++}`;
    const response =
      kind === 'create'
        ? await postPet(server, key, name)
        : await fetch(`${server.url}/pets?limit=${1 + Math.floor(Math.random() * 100)}${Math.random() < 0.5 ? '&status=available' : ''}`, {
            headers: auth(key),
          });
    const body = (await response.json()) as { id: number; name: string; code?: string };
    return {
      kind,
      status: response.status,
      code: response.status >= 400 ? (body.code ?? null) : null,
      retryAfter: response.headers.get('retry-after'),
      reset: response.headers.get('x-ratelimit-reset'),
      sentAt,
      answeredAt: Date.now(),
      ...(kind === 'create' ? { name } : {}),
      ...(response.status === 201 ? { pet: { id: body.id, name: body.name } } : {}),
    };
  };
  const done = Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let i = 0; running && i < 100_000; i++) answers.push(await send((worker + i) % 2 === 0 ? 'create' : 'list'));
    }),
  );
  const since = (at: number) => answers.filter((answer) => answer.sentAt >= at);
  return {
    answers,
    since,
    served: (at: number, kind: Answer['kind']) => since(at).filter((answer) => answer.kind === kind && answer.status < 300).length,
    refused: (at: number) => since(at).filter((answer) => answer.status === 503).length,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

interface Usage {
  windows: { name: string; used: number; reset: number }[];
  bannedUntil: number | null;
}
async function usageOf(server: ServerProcess, key: string): Promise<Usage> {
  const response = await fetch(`${server.url}/rate_limit`, { headers: auth(key) });
  expect(response.status).toBe(200);
  return (await response.json()) as Usage;
}

describeWithPgBouncerAndRedis('PgBouncer restarted under load', (servers) => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await spawnServer({
      ...STOPPED_AT_ONCE,
      ...WITH_ADMIN_API,
      DATABASE_URL: servers().pgbouncer.url,
      DATABASE_POOL_MODE: 'transaction',
      REDIS_URL: servers().redis.url,
      DATABASE_TIMEOUT_MS: '1000',
      NODE_ENV: 'production',
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  const newKey = async (settings: KeySettings) => (await issueKey(server, settings)).key;

  const STOPS = [
    {
      how: 'stopped as `systemctl restart` does (SIGINT: the transactions in flight finish)',
      prefix: 'safe stop',
      stop: () => servers().pgbouncer.pauseSafely(),
      cutsTransactions: false,
    },
    {
      how: 'killed (SIGTERM: the transactions in flight are cut)',
      prefix: 'kill',
      stop: () => servers().pgbouncer.pause(),
      cutsTransactions: true,
    },
  ];

  it.each(STOPS)(
    'when $how: 503 + Retry-After only while it is down, serves again without a server restart, loses no acknowledged create, charges no quota',
    async ({ prefix, stop, cutsTransactions }) => {
      // Equal limits make the day this key's binding window (as little remains, and it resets later), so every answer's
      // X-RateLimit-Reset names the day that counted it.
      const loadKey = await newKey({ plan: 'enterprise', perMinute: 50_000_000, perDay: 50_000_000 });
      const freeKey = await newKey({ plan: 'free' });
      const readyz = async () => (await fetch(server.url.replace('/v1', '/readyz'))).status;
      const load = runLoad(server, loadKey, prefix, 6);
      try {
        const startedAt = Date.now();
        await eventually(() => load.served(startedAt, 'create') >= 30 && load.served(startedAt, 'list') >= 30, { timeoutMs: 30_000 });
        // The Free key is now in the server's key cache: its requests below are admitted (counted), then refused.
        const beforeOutage = await fetch(`${server.url}/pets?limit=1`, { headers: auth(freeKey) });
        expect(beforeOutage.status).toBe(200);

        const stoppedAt = Date.now();
        await stop();
        let restartedAt: number;
        try {
          await eventually(() => load.refused(stoppedAt) >= 20, { timeoutMs: 30_000 });
          // More requests than its minute allows: none may become a 429 (or a strike towards a ban).
          const outage: Response[] = [];
          for (let round = 0; round < 10; round++) {
            outage.push(...(await Promise.all(Array.from({ length: 8 }, () => fetch(`${server.url}/pets?limit=5`, { headers: auth(freeKey) })))));
          }
          for (const response of outage) {
            expect({ status: response.status, retryAfter: response.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '5' });
            expect(await response.json()).toEqual({ code: 'service_unavailable', status: 503, message: expect.stringContaining('database') });
          }
          expect(await readyz()).toBe(503);
          expect((await fetch(server.url.replace('/v1', '/livez'))).status).toBe(200);
        } finally {
          await servers().pgbouncer.start();
          restartedAt = Date.now();
        }
        await eventually(() => load.served(restartedAt, 'create') >= 30 && load.served(restartedAt, 'list') >= 30, { timeoutMs: 30_000 });
        await load.stop();

        const recoveredAt = Math.min(
          ...load
            .since(restartedAt)
            .filter((answer) => answer.status < 300)
            .map((answer) => answer.answeredAt),
        );
        const refused = load.answers.filter((answer) => answer.status === 503);
        console.info(
          `PgBouncer down ${restartedAt - stoppedAt} ms; first 2xx ${recoveredAt - restartedAt} ms after it listened again; ` +
            `${refused.length} of ${load.answers.length} load requests answered 503, the last ${Math.max(...refused.map((a) => a.answeredAt)) - restartedAt} ms after it listened again`,
        );
        // What clients see: 2xx, or a 503 with Retry-After for a request sent while PgBouncer was down (or in flight
        // when it stopped), and nothing else.
        expect(load.answers.filter((answer) => answer.status >= 300 && answer.status !== 503)).toEqual([]);
        for (const answer of refused) {
          expect(answer).toMatchObject({ code: 'service_unavailable', retryAfter: '5' });
          expect(answer.answeredAt).toBeGreaterThanOrEqual(stoppedAt);
          expect(answer.sentAt).toBeLessThanOrEqual(recoveredAt);
        }
        expect(await readyz()).toBe(200);
        expect(server.child.exitCode).toBeNull();

        // No quota charged: the load key's day counted exactly the requests it was served in that day.
        const loadUsage = await usageOf(server, loadKey);
        const day = loadUsage.windows.find((window) => window.name === 'day')!;
        expect(day.used).toBe(load.answers.filter((answer) => answer.status < 300 && answer.reset === String(day.reset)).length);
        const freeUsage = await usageOf(server, freeKey);
        expect(freeUsage.windows.find((window) => window.name === 'day')!.used).toBe(1);
        expect([loadUsage.bannedUntil, freeUsage.bannedUntil]).toEqual([null, null]);

        // Every acknowledged create is stored, under its name, once. A create refused with 503 was not stored, but for
        // one in flight when PgBouncer was killed: PostgreSQL may have committed it before its answer was cut.
        const stored = (await listAllPets(server, loadKey)).filter((pet) => pet.name.startsWith(`${prefix} `));
        const byId = new Map(stored.map((pet) => [pet.id, pet.name]));
        const acknowledged = load.answers.flatMap((answer) => (answer.pet ? [answer.pet] : []));
        expect(acknowledged.filter((pet) => byId.get(pet.id) !== pet.name)).toEqual([]);
        expect(new Set(byId.values()).size).toBe(stored.length);
        const refusedCreates = refused.filter((answer) => answer.kind === 'create').map((answer) => answer.name!);
        const storedAnyway = refusedCreates.filter((name) => new Set(byId.values()).has(name));
        if (!cutsTransactions) expect(storedAnyway).toEqual([]);
        expect(stored.length).toBe(acknowledged.length + storedAnyway.length);
        console.info(
          `${acknowledged.length} creates acknowledged, all stored; ${refusedCreates.length} answered 503, ${storedAnyway.length} of them stored`,
        );

        // Exact limits again: the Free key gets its 60 a minute, less the one it was served before the outage if that
        // fell in the same minute.
        const window = await burstUntilLimited(() =>
          Array.from({ length: 90 }, () => fetch(`${server.url}/pets?limit=1`, { headers: auth(freeKey) })),
        );
        const earlier = beforeOutage.headers.get('x-ratelimit-reset') === window[0]!.reset ? 1 : 0;
        expect(window.filter((answer) => answer.status === 200)).toHaveLength(60 - earlier);
        expect(window.filter((answer) => answer.status !== 200 && answer.status !== 429)).toEqual([]);
      } finally {
        await load.stop();
      }
    },
    120_000,
  );
});
