// `pnpm bench --webhooks`: webhook delivery on the built server (SQLite, then PostgreSQL), to a receiver in its own
// process on loopback that answers at once: what two subscribed endpoints cost creates and status changes at 100 a
// second (head to head with none, interleaved), the time from a create's 201 to its delivery at that pace, how many
// deliveries a second the server keeps up with while creating at full speed, and a healthy endpoint's lag at that pace
// beside 500 endpoints that never answer (docs/webhooks.md, docs/performance.md). `--dead-endpoints` runs only the last.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { issueUnlimitedKeyWithCli, spawnServer, startPostgres, STOPPED_AT_ONCE, type ServerProcess } from '@petstore/test-support';
import autocannon from 'autocannon';
import { startNodeServer } from '../processes.js';

const ADMIN_TOKEN = randomBytes(32).toString('hex');
/** Changes a second in the paced runs. */
const PACE = 100;
const PACED_SECONDS = 5;
/** Paced runs of each kind per setting, in the order none, two, two, none, ... so that drift favours neither. */
const ROUNDS = 4;
const FULL_SPEED_SECONDS = 10;
/** Pets whose status the paced transitions change, each in turn. */
const TRANSITION_PETS = 1_000;

async function until<T>(what: string, check: () => Promise<T | null>, timeoutMs = 300_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not done after ${timeoutMs / 1000} s`);
    await sleep(20);
  }
}

interface Receiver {
  url: string;
  /** The webhooks received on `path` so far: `[data.id, arrival in ms since the epoch]`. */
  received(path: string): Promise<[number, number][]>;
  count(path: string): Promise<number>;
  stop(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const started = await startNodeServer('webhooks/receiver.js', {}, false);
  const url = `http://127.0.0.1:${started.port}`;
  return {
    url,
    received: async (path) => (await (await fetch(url + path)).json()) as [number, number][],
    count: async (path) => (await (await fetch(`${url}${path}?count`)).json()) as number,
    stop: started.stop,
  };
}

/** One call of the server's API; throws unless it answered `expected`. */
async function call(url: string, token: string, method: string, expected: number, body?: unknown, contentType = 'application/json') {
  const response = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': contentType },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (response.status !== expected) throw new Error(`${method} ${url} answered ${response.status}: ${await response.text()}`);
  return (expected === 204 ? {} : await response.json()) as { id: string | number };
}

const percentile = (sorted: readonly number[], p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;

/** Sends `count` requests at PACE a second, each at its time whether the one before was answered or not. */
async function paced<T>(count: number, send: (i: number) => Promise<T>): Promise<{ latencies: number[]; answers: T[] }> {
  const latencies: number[] = [];
  const answers: Promise<T>[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    await sleep(Math.max(0, start + (i * 1000) / PACE - performance.now()));
    const sentAt = performance.now();
    answers.push(
      send(i).then((answer) => {
        latencies.push(performance.now() - sentAt);
        return answer;
      }),
    );
  }
  return { answers: await Promise.all(answers), latencies };
}

/** The built server on `databaseUrl`, in production mode, its admin API on, webhooks allowed to loopback; a key. */
async function startServer(databaseUrl: string): Promise<{ key: string; server: ServerProcess }> {
  const key = await issueUnlimitedKeyWithCli(databaseUrl);
  const server = await spawnServer({
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    ADMIN_TOKEN,
    ADMIN_PORT: '0',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...STOPPED_AT_ONCE,
  });
  return { key, server };
}

/** What the paced runs of one setting measured. */
interface Setting {
  creates: number[];
  transitions: number[];
}

async function measureWrites(label: string, databaseUrl: string, receiver: Receiver): Promise<void> {
  const { key, server } = await startServer(databaseUrl);
  try {
    const create = (name: string) => call(`${server.url}/pets`, key, 'POST', 201, { name, categoryId: 1 });
    const paths = [`/${label}-a`, `/${label}-b`];
    const endpoints: string[] = [];
    for (const path of paths)
      endpoints.push(String((await call(`${server.adminUrl!}/webhook-endpoints`, ADMIN_TOKEN, 'POST', 201, { url: receiver.url + path })).id));
    /** Deliveries each path is owed so far. */
    let owed = 0;
    const subscribe = async (on: boolean) => {
      for (const id of endpoints) await call(`${server.adminUrl!}/webhook-endpoints/${id}`, ADMIN_TOKEN, 'PATCH', 200, { disabled: !on });
    };
    const delivered = () =>
      until(`${label}: delivering ${owed} webhooks to each endpoint`, async () =>
        (await Promise.all(paths.map((path) => receiver.count(path)))).every((count) => count >= owed) ? true : null,
      );

    const pets: number[] = [];
    for (let i = 0; i < TRANSITION_PETS; i += 50)
      pets.push(...(await Promise.all(Array.from({ length: 50 }, (_, j) => create(`transitioned ${i + j}`)))).map((pet) => Number(pet.id)));
    owed += TRANSITION_PETS;
    const statuses = new Map(pets.map((id) => [id, 'available']));
    let turn = 0;
    const transition = () => {
      const id = pets[turn++ % pets.length]!;
      const status = statuses.get(id) === 'available' ? 'pending' : 'available';
      statuses.set(id, status);
      return call(`${server.url}/pets/${id}`, key, 'PATCH', 200, { status }, 'application/merge-patch+json');
    };
    const count = PACE * PACED_SECONDS;
    /** A paced run of creates, then one of transitions; with `subscribed`, the creates' 201s (by id) for the lag. */
    const run = async (setting: Setting, subscribed: boolean, answered: Map<number, number>) => {
      const creates = await paced(count, async (i) => {
        const pet = await create(`paced ${i}`);
        return { id: Number(pet.id), at: Date.now() };
      });
      const transitions = await paced(count, transition);
      setting.creates.push(...creates.latencies);
      setting.transitions.push(...transitions.latencies);
      if (subscribed) {
        for (const { id, at } of creates.answers) answered.set(id, at);
        owed += 2 * count;
        await delivered();
      }
    };

    await delivered();
    const warmUp = new Map<number, number>();
    await run({ creates: [], transitions: [] }, true, warmUp);
    const none: Setting = { creates: [], transitions: [] };
    const two: Setting = { creates: [], transitions: [] };
    const answered = new Map<number, number>();
    for (let round = 0; round < 2 * ROUNDS; round++) {
      const subscribed = round % 4 === 1 || round % 4 === 2;
      await subscribe(subscribed);
      await run(subscribed ? two : none, subscribed, answered);
    }
    const lags: number[] = [];
    for (const path of paths) {
      const arrivals = new Map((await receiver.received(path)).filter(([id]) => answered.has(id)).map(([id, at]) => [id, at]));
      for (const [id, at] of answered) lags.push(arrivals.get(id)! - at);
    }
    lags.sort((a, b) => a - b);

    const fullSpeed = async () => {
      const result = await autocannon({
        url: `${server.url}/pets`,
        method: 'POST',
        connections: 50,
        duration: FULL_SPEED_SECONDS,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`creates failed: ${result.non2xx} non-2xx, ${result.errors} errors`);
      return result['2xx'];
    };
    await subscribe(false);
    const createdAlone = await fullSpeed();
    await subscribe(true);
    const startedAt = Date.now();
    const created = await fullSpeed();
    owed += created;
    await delivered();
    const lastArrival = Math.max(...(await Promise.all(paths.map(async (path) => (await receiver.received(path)).at(-1)![1]))));
    const deliveriesPerSecond = (2 * created) / ((lastArrival - startedAt) / 1000);

    const ms = (sorted: number[], p: number) => percentile(sorted, p).toFixed(2);
    const compared = (kind: keyof Setting): [string, string][] => {
      const [a, b] = [none[kind].sort((x, y) => x - y), two[kind].sort((x, y) => x - y)];
      return [0.5, 0.99].map((p) => [
        `${kind} at ${PACE}/s: latency p${p * 100}, two endpoints against none (ms)`,
        `${ms(b, p)} against ${ms(a, p)}: ${(percentile(b, p) / percentile(a, p)).toFixed(2)}x`,
      ]);
    };
    const rows = [
      ...compared('creates'),
      ...compared('transitions'),
      [`201 to delivery at ${PACE} creates/s: p50 / p99 / max (ms)`, `${percentile(lags, 0.5)} / ${percentile(lags, 0.99)} / ${lags.at(-1)}`],
      ['deliveries/s while creating at full speed (two per create)', `${Math.round(deliveriesPerSecond)}`],
      [
        'creates/s at full speed, two endpoints against none',
        `${Math.round(created / FULL_SPEED_SECONDS)} against ${Math.round(createdAlone / FULL_SPEED_SECONDS)}`,
      ],
    ];
    const runs = `${ROUNDS} runs of ${PACED_SECONDS} s per setting and kind, interleaved`;
    console.log(`| Webhooks on ${label} (${runs}) | |\n|---|---:|\n${rows.map(([name, value]) => `| ${name} | ${value} |`).join('\n')}\n`);
  } finally {
    await server.stop();
  }
}

/** Endpoints that never answer, beside the healthy one. */
const DEAD_ENDPOINTS = 500;

/** A healthy endpoint's lag (201 to delivery) at PACE creates a second, beside DEAD_ENDPOINTS that never answer. */
async function besideDeadEndpoints(label: string, databaseUrl: string, receiver: Receiver): Promise<void> {
  const { key, server } = await startServer(databaseUrl);
  try {
    const endpoint = (path: string) => call(`${server.adminUrl!}/webhook-endpoints`, ADMIN_TOKEN, 'POST', 201, { url: receiver.url + path });
    for (let i = 0; i < DEAD_ENDPOINTS; i++) await endpoint(`/dead/${label}-${i}`);
    const healthy = `/${label}-beside-dead`;
    await endpoint(healthy);
    const { answers } = await paced(PACE * PACED_SECONDS, async (i) => {
      const pet = await call(`${server.url}/pets`, key, 'POST', 201, { name: `beside dead ${i}`, categoryId: 1 });
      return { id: Number(pet.id), at: Date.now() };
    });
    await until(`${label}: delivering to the healthy endpoint`, async () => ((await receiver.count(healthy)) >= answers.length ? true : null));
    const arrivals = new Map(await receiver.received(healthy));
    const lags = answers.map(({ id, at }) => arrivals.get(id)! - at).sort((a, b) => a - b);
    console.log(
      `| Webhooks on ${label}, ${PACE} creates/s for ${PACED_SECONDS} s | |\n|---|---:|\n` +
        `| 201 to delivery to a healthy endpoint beside ${DEAD_ENDPOINTS} that never answer: p50 / p99 / max (ms) | ` +
        `${percentile(lags, 0.5)} / ${percentile(lags, 0.99)} / ${lags.at(-1)} |\n`,
    );
  } finally {
    await server.stop();
  }
}

/** Both databases (PostgreSQL when its binaries are installed), one after the other. */
export async function webhooksBench(onlyDeadEndpoints = false): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), 'petstore-webhooks-bench-'));
  const receiver = await startReceiver();
  const measure = async (label: string, databaseUrl: string, into: Receiver) => {
    if (!onlyDeadEndpoints) await measureWrites(label, databaseUrl, into);
    await besideDeadEndpoints(label, `${databaseUrl}${databaseUrl.startsWith('sqlite:') ? '-dead' : ''}`, into);
  };
  try {
    await measure('SQLite', `sqlite:${join(work, 'pets.db')}`, receiver);
    const postgres = await startPostgres();
    if (!postgres) console.log('PostgreSQL not measured: no PostgreSQL binaries (pg_config --bindir)');
    else {
      try {
        await measure('PostgreSQL', postgres.url, receiver);
      } finally {
        await postgres.stop();
      }
    }
    return 0;
  } finally {
    await receiver.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
