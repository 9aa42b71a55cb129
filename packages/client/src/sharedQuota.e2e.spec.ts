import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createContainer, loadConfig, startServer, TOKENS, type RunningServer } from '@petstore/app';
import { FakeClock } from '@petstore/core/testing';
import { eventually, fetchAllPages, issueUnlimitedKeyWithCli, runCli, runNodeProcess } from '@petstore/test-support';
import { createClient } from './index.js';
import { auth } from './testing/builtServer.js';
import { recordingFetch, sentInsideRetryAfter, type Exchange } from './testing/recordingFetch.js';

const here = dirname(fileURLToPath(import.meta.url));
const BUILT_CLIENT = pathToFileURL(join(here, '..', 'dist', 'index.js')).href;

/** Another process of the same key: the built client, creating `count` pets, reporting their ids and its exchanges. */
const OTHER_PROCESS = `
import { createClient } from ${JSON.stringify(BUILT_CLIENT)};
const exchanges = [];
const recording = async (input, init) => {
  const sentAtMs = Date.now();
  const response = await fetch(input, init);
  const body = await response.text();
  const exchange = { sentAtMs, answeredAtMs: Date.now(), status: response.status };
  if (response.status >= 400) Object.assign(exchange, { code: JSON.parse(body).code, retryAfter: Number(response.headers.get('Retry-After')) });
  exchanges.push(exchange);
  return new Response(body, { status: response.status, headers: response.headers });
};
const client = createClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY, fetch: recording });
const count = Number(process.env.COUNT);
const pets = await Promise.all(Array.from({ length: count }, (_, i) => client.createPet({ name: process.env.PREFIX + i, categoryId: 1 })));
console.log(JSON.stringify({ ids: pets.map((p) => p.id), exchanges }));
`;

// The server runs in this process on a clock the test moves, so that the two processes contest one minute's quota
// whenever they start, and what they wait out is a second, not the rest of a real minute.
describe('two processes of one key sharing its per-minute quota (the server on a clock the test moves)', () => {
  let work: string;
  let databaseUrl: string;
  let server: RunningServer;
  // The last second of a minute window: a 429 asks for a 1-second wait, and the window stays spent until the test
  // moves the clock. Behind the real time: to the clients every window the headers name has already reset, so only
  // `Retry-After` holds them back.
  const clock = new FakeClock('2026-06-01T12:00:59Z');

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'petstore-shared-quota-'));
    databaseUrl = `sqlite:${join(work, 'petstore.db')}`;
    const config = loadConfig({ DATABASE_URL: databaseUrl, NODE_ENV: 'production', PORT: '0', METRICS_PORT: '0', LOG_LEVEL: 'silent' });
    const container = createContainer(config);
    container.rebind(TOKENS.Clock).toConstantValue(clock);
    server = await startServer(config, container);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await rm(work, { recursive: true, force: true });
  });

  /** How many creates the server answered with `status`, from its metrics. */
  const createsAnswered = async (status: number): Promise<number> => {
    const metrics = await (await fetch(`http://127.0.0.1:${server.metricsPort}/metrics`)).text();
    const series = new RegExp(`^petstore_http_requests_total\\{method="POST",route="/v1/pets",status="${status}"\\} (\\d+)$`, 'm').exec(metrics);
    return Number(series?.[1] ?? 0);
  };

  it('twice a 5-per-minute quota of concurrent creates, from two processes: all succeed once, no ban, nothing sent inside a Retry-After', async () => {
    const quota = 5;
    const created = await runCli(['keys', 'create', '--plan', 'enterprise', '--per-minute', String(quota), '--per-day', '1000'], {
      DATABASE_URL: databaseUrl,
    });
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    const script = join(work, 'other-process.mjs');
    await writeFile(script, OTHER_PROCESS);

    const other = runNodeProcess(script, [], { BASE_URL: server.url, API_KEY: key, COUNT: String(quota), PREFIX: 'quota-b-' }, 60_000);
    const recorder = recordingFetch();
    const client = createClient({ baseUrl: server.url, apiKey: key, fetch: recorder.fetch });
    const [here] = await Promise.all([
      Promise.all(Array.from({ length: quota }, (_, i) => client.createPet({ name: `quota-a-${i}`, categoryId: 1 }))),
      // Once the window is spent and a create was refused, the next minute begins.
      eventually(async () => (await createsAnswered(201)) === quota && (await createsAnswered(429)) > 0, { timeoutMs: 60_000 }).then(() =>
        clock.set('2026-06-01T12:01:00Z'),
      ),
    ]);
    const finished = await other;

    expect(finished).toMatchObject({ code: 0 });
    const there = JSON.parse(finished.stdout) as { ids: number[]; exchanges: Exchange[] };
    const ids = [...here.map((p) => p.id), ...there.ids];
    expect(new Set(ids).size).toBe(2 * quota);
    const unlimitedKey = await issueUnlimitedKeyWithCli(databaseUrl);
    const stored = (await fetchAllPages<{ id: number; name: string }>(`${server.url}/pets?limit=100`, auth(unlimitedKey))).filter((p) =>
      p.name.startsWith('quota-'),
    );
    expect(stored.map((p) => p.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));

    const exchanges = [...recorder.exchanges, ...there.exchanges];
    expect(exchanges.map((e) => e.status)).toContain(429);
    expect(exchanges.map((e) => e.code)).not.toContain('key_banned');
    expect(sentInsideRetryAfter(recorder.exchanges, 1)).toEqual([]);
    expect(sentInsideRetryAfter(there.exchanges, 1)).toEqual([]);
  }, 120_000);
});
