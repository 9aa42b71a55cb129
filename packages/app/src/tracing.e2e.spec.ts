import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, loadedModulesProbe, nextLink, runCli, spawnServer, STOPPED_AT_ONCE, type ServerProcess } from '@petstore/test-support';
import { describeWithPostgresAndRedis } from '@petstore/test-support/jest';
import { auth, postPet } from './testing/api.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './testing/otlpReceiver.js';
import { startWebhookReceiver } from './testing/webhookReceiver.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-tracing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ADMIN_TOKEN = 'e2e-traced-admin-token-7d2f0b4c9a1e3f5b8c6d0a2e4f6b8d0c';
const SERVER = 2;
const CLIENT = 3;
/** W3C trace context of a caller: its trace id and its own span id, which becomes the server span's parent. */
const randomHex = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
const callerContext = () => {
  const traceId = randomHex(16);
  const parentSpanId = randomHex(8);
  return { traceId, parentSpanId, traceparent: `00-${traceId}-${parentSpanId}-01` };
};

// The stops below are SIGTERM's clean ones (exit 0, the last spans exported), without waiting for idle keep-alive clients.
const tracingEnv = (receiver: OtlpReceiver) => ({
  ...STOPPED_AT_ONCE,
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_BSP_SCHEDULE_DELAY: '200',
  OTEL_SERVICE_NAME: 'petstore-e2e',
});

/** The access-log lines the server has written so far. */
const accessLog = (server: ServerProcess) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const serverSpanOf = (receiver: OtlpReceiver, traceId: string) => receiver.spans().find((span) => span.traceId === traceId && span.kind === SERVER);
const childrenOf = (receiver: OtlpReceiver, parent: ReceivedSpan) =>
  receiver.spans().filter((span) => span.traceId === parent.traceId && span.parentSpanId === parent.spanId);

describe('traces of the built server on SQLite, exported over OTLP/HTTP', () => {
  let receiver: OtlpReceiver;
  let server: ServerProcess;
  let key: string;
  let keyId: string;
  const databaseUrl = `sqlite:${join(dir, 'traced', 'petstore.db')}`;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    // One request over the limit, before its Retry-After, bans the key: both refusals in a few requests.
    server = await spawnServer({
      DATABASE_URL: databaseUrl,
      BAN_STRIKES: '1',
      BAN_STRIKE_INTERVAL_SECONDS: '0',
      ADMIN_TOKEN,
      ADMIN_PORT: '0',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      ...tracingEnv(receiver),
    });
    key = server.firstRunKey!;
    keyId = /API key \((key_[0-9a-f]+)\)/.exec(server.output())![1]!;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  }, 30_000);

  it('names server spans by route template, honours traceparent, and nests the SQLite statements under them', async () => {
    const health = callerContext();
    expect((await fetch(`${server.url.replace(/\/v1$/, '')}/readyz`, { headers: { traceparent: health.traceparent } })).status).toBe(200);
    for (const name of ['Rex', 'Tom', 'Kit']) expect((await postPet(server, key, name)).status).toBe(201);
    const firstPage = await fetch(`${server.url}/pets?limit=1`, { headers: auth(key) });
    const next = nextLink(firstPage.headers.get('link'));
    expect(next).toMatch(/cursor=/);
    const listed = callerContext();
    const secondPage = await fetch(`${server.url}/pets${new URL(next!).search}`, { headers: { ...auth(key), traceparent: listed.traceparent } });
    expect(secondPage.status).toBe(200);
    const [pet] = (await secondPage.json()) as { id: number }[];
    const got = callerContext();
    expect((await fetch(`${server.url}/pets/${pet!.id}`, { headers: { ...auth(key), traceparent: got.traceparent } })).status).toBe(200);
    const refused = callerContext();
    expect((await fetch(`${server.url}/pets`, { headers: { Authorization: 'Bearer pst_not_a_key', traceparent: refused.traceparent } })).status).toBe(
      401,
    );

    const getSpan = await eventually(() => serverSpanOf(receiver, got.traceId), { timeoutMs: 30_000 });
    expect(getSpan).toMatchObject({
      name: 'GET /v1/pets/{petId}',
      parentSpanId: got.parentSpanId,
      attributes: { 'http.route': '/v1/pets/{petId}', 'petstore.key_id': keyId, 'petstore.rate_limit.outcome': 'admitted' },
      resource: { 'service.name': 'petstore-e2e' },
    });
    const findById = await eventually(() => childrenOf(receiver, getSpan).find((span) => span.attributes['db.system.name'] === 'sqlite'), {
      timeoutMs: 30_000,
    });
    expect(findById).toMatchObject({ kind: CLIENT, name: 'SELECT pets', attributes: { 'db.operation.name': 'SELECT' } });
    expect(findById.attributes['db.query.text']).toMatch(/^SELECT .* FROM "pets" WHERE "id" = \?$/);

    // The cursor page: the template names it, not the URL with its cursor.
    const listSpan = await eventually(() => serverSpanOf(receiver, listed.traceId), { timeoutMs: 30_000 });
    expect(listSpan).toMatchObject({ name: 'GET /v1/pets', parentSpanId: listed.parentSpanId, attributes: { 'http.route': '/v1/pets' } });
    await eventually(
      () =>
        childrenOf(receiver, listSpan).some((span) => /ORDER BY "id" LIMIT CAST\(\? AS INTEGER\)$/.test(String(span.attributes['db.query.text']))),
      {
        timeoutMs: 30_000,
      },
    );

    const refusedSpan = await eventually(() => serverSpanOf(receiver, refused.traceId), { timeoutMs: 30_000 });
    expect(refusedSpan.attributes['petstore.rate_limit.outcome']).toBe('unauthenticated');
    expect(refusedSpan.attributes['petstore.key_id']).toBeUndefined();

    // Every create has its server span, with its INSERT under it.
    const creates = await eventually(
      () => {
        const spans = receiver.spans().filter((span) => span.kind === SERVER && span.name === 'POST /v1/pets');
        return (
          spans.length === 3 &&
          spans.every((span) => childrenOf(receiver, span).some((child) => child.attributes['db.operation.name'] === 'INSERT')) &&
          spans
        );
      },
      { timeoutMs: 30_000 },
    );
    expect(creates).toHaveLength(3);

    // Health checks are not traced (exported before the spans above, had they been).
    expect(receiver.spans().filter((span) => span.traceId === health.traceId)).toEqual([]);

    // No server span is named by a raw path, an id or a query string.
    const names = new Set(
      receiver
        .spans()
        .filter((span) => span.kind === SERVER)
        .map((span) => span.name),
    );
    expect([...names].sort()).toEqual(['GET /v1/pets', 'GET /v1/pets/{petId}', 'POST /v1/pets']);

    // The access-log line carries the trace and span ids of its request.
    const line = await eventually(() => accessLog(server).find((entry) => entry['path'] === `/v1/pets/${pet!.id}`));
    expect(line).toMatchObject({ traceId: got.traceId, spanId: getSpan.spanId, keyId });

    // No secret anywhere in what was exported (the first-run key and the refused one).
    for (const body of receiver.bodies()) {
      expect(body).not.toContain(key);
      expect(body).not.toContain('pst_not_a_key');
    }
  }, 120_000);

  it('records the rate-limit outcome and the key of refused requests on their spans', async () => {
    const created = await runCli(['keys', 'create', '--plan', 'enterprise', '--per-minute', '1', '--per-day', '1000'], { DATABASE_URL: databaseUrl });
    expect(created.code).toBe(0);
    const limited = created.stdout.trim();
    const limitedId = /Created (key_[0-9a-f]+)/.exec(created.stderr)![1]!;
    const answers: { code: string | null; traceId: string }[] = [];
    while (!answers.some((answer) => answer.code === 'key_banned')) {
      if (answers.length === 20) throw new Error(`no key_banned answer: ${JSON.stringify(answers)}`);
      const caller = callerContext();
      const response = await fetch(`${server.url}/pets`, { headers: { ...auth(limited), traceparent: caller.traceparent } });
      answers.push({
        code: response.status === 200 ? (await response.arrayBuffer(), null) : ((await response.json()) as { code: string }).code,
        traceId: caller.traceId,
      });
    }
    const expected = { rate_limited: 'rate_limited', key_banned: 'banned' } as Record<string, string>;
    expect(answers.some((answer) => answer.code === 'rate_limited')).toBe(true);
    for (const { code, traceId } of answers) {
      const span = await eventually(() => serverSpanOf(receiver, traceId), { timeoutMs: 30_000 });
      expect({ code, outcome: span.attributes['petstore.rate_limit.outcome'], keyId: span.attributes['petstore.key_id'] }).toEqual({
        code,
        outcome: code === null ? 'admitted' : expected[code],
        keyId: limitedId,
      });
    }
    // The access log names the key of a 429 too.
    const rateLimited = answers.find((answer) => answer.code === 'rate_limited')!;
    const line = await eventually(
      () =>
        server
          .output()
          .split('\n')
          .find((l) => l.includes(`"traceId":"${rateLimited.traceId}"`)),
      { timeoutMs: 30_000 },
    );
    expect(JSON.parse(line)).toMatchObject({ status: 429, keyId: limitedId });
    for (const body of receiver.bodies()) expect(body).not.toContain(limited);
  }, 60_000);

  it('exports no credential sent in a URL: url.query and url.path are redacted, and so is the access log', async () => {
    const sent: { path: string; traceId: string }[] = [];
    const send = async (base: string, path: string) => {
      const caller = callerContext();
      const response = await fetch(`${base}${path}`, { headers: { traceparent: caller.traceparent, Authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(response.status).toBeGreaterThanOrEqual(400);
      sent.push({ path, traceId: caller.traceId });
    };
    await send(server.url, `/pets?access_token=${key}`);
    await send(server.url, `/pets?limit=5&token=not-a-key-shape&q=${encodeURIComponent(key)}`);
    await send(server.url, `/pets/${key}`);
    await send(server.adminUrl!, `/keys?Key=${ADMIN_TOKEN}`);
    await send(server.adminUrl!, `/keys/${ADMIN_TOKEN}`);

    const spans = await eventually(
      () => {
        const found = sent.map(({ traceId }) => serverSpanOf(receiver, traceId));
        return found.every((span) => span !== undefined) && found;
      },
      { timeoutMs: 30_000 },
    );
    expect(spans.map((span) => [span.attributes['url.path'], span.attributes['url.query']])).toEqual([
      ['/v1/pets', 'access_token=REDACTED'],
      ['/v1/pets', 'limit=5&token=REDACTED&q=REDACTED'],
      ['/v1/pets/REDACTED', undefined],
      ['/admin/v1/keys', 'Key=REDACTED'],
      ['/admin/v1/keys/REDACTED', undefined],
    ]);
    for (const body of receiver.bodies()) {
      expect(body).not.toContain(key);
      expect(body).not.toContain(ADMIN_TOKEN);
      expect(body).not.toContain('not-a-key-shape');
    }
    await eventually(() => server.output().includes('"path":"/admin/v1/keys/REDACTED"'), { timeoutMs: 30_000 });
    expect(accessLog(server).map((line) => line['path'])).toContain('/v1/pets/REDACTED');
    // The log lines (not the first-run banner, which prints the key once).
    const logLines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'));
    expect(logLines.filter((line) => line.includes(key) || line.includes(ADMIN_TOKEN))).toEqual([]);
  }, 60_000);

  it('exports a span per webhook delivery attempt, parent of the POST to the receiver', async () => {
    const webhooks = await startWebhookReceiver();
    try {
      const created = await fetch(`${server.adminUrl!}/webhook-endpoints`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
        // A receiver's token in the query: never exported.
        body: JSON.stringify({ url: `${webhooks.url}?token=receiver-secret-5f1c` }),
      });
      const endpoint = (await created.json()) as { id: string };
      expect((await postPet(server, key, 'Hooked')).status).toBe(201);
      await eventually(() => webhooks.received.length === 1);
      const eventId = String(webhooks.received[0]!.headers['webhook-id']);
      const span = await eventually(
        () => receiver.spans().find((s) => s.name === 'webhook deliver' && s.attributes['petstore.webhook.event_id'] === eventId),
        {
          timeoutMs: 30_000,
        },
      );
      // A trace of its own, not the create's (whose commit woke the worker).
      expect(span.parentSpanId).toBeUndefined();
      expect(span.attributes).toMatchObject({
        'petstore.webhook.endpoint_id': endpoint.id,
        'petstore.webhook.attempt': 1,
        'http.response.status_code': 200,
      });
      const post = await eventually(() => childrenOf(receiver, span).find((child) => child.kind === CLIENT), { timeoutMs: 30_000 });
      expect(post.attributes['http.request.method'] ?? post.attributes['http.method']).toBe('POST');
      expect(JSON.stringify(receiver.spans())).not.toContain('receiver-secret-5f1c');
      expect(post.attributes['url.full'] ?? post.attributes['http.url']).toBe(`${webhooks.url}`);
    } finally {
      await webhooks.close();
    }
  }, 60_000);

  it('exports the spans still batched when stopped with SIGTERM', async () => {
    const last = callerContext();
    expect((await fetch(`${server.url}/pets?limit=5`, { headers: { ...auth(key), traceparent: last.traceparent } })).status).toBe(200);
    expect(await server.stop()).toBe(0);
    expect(serverSpanOf(receiver, last.traceId)).toMatchObject({ name: 'GET /v1/pets' });
  }, 60_000);
});

it('stops with exit code 0 when the collector is gone, saying the last spans were not exported', async () => {
  const receiver = await startOtlpReceiver();
  const server = await spawnServer({
    DATABASE_URL: `sqlite:${join(dir, 'collector-gone', 'petstore.db')}`,
    ...tracingEnv(receiver),
    OTEL_BSP_SCHEDULE_DELAY: '60000',
  });
  expect((await fetch(`${server.url}/pets`, { headers: auth(server.firstRunKey!) })).status).toBe(200);
  await receiver.close();
  expect(await server.stop()).toBe(0);
  expect(server.output()).toMatch(/could not export the last spans: .*ECONNREFUSED/);
}, 60_000);

describe('the built server without an OTLP endpoint', () => {
  it('loads no OpenTelemetry module and writes no trace id', async () => {
    const probe = loadedModulesProbe(dir);
    const server = await spawnServer({
      ...STOPPED_AT_ONCE,
      DATABASE_URL: `sqlite:${join(dir, 'untraced', 'petstore.db')}`,
      NODE_OPTIONS: probe.nodeOptions,
    });
    try {
      const { traceparent } = callerContext();
      expect((await fetch(`${server.url}/pets`, { headers: { ...auth(server.firstRunKey!), traceparent } })).status).toBe(200);
      const line = await eventually(() => accessLog(server).find((entry) => entry['path'] === '/v1/pets'));
      expect(line).not.toHaveProperty('traceId');
      expect(line).not.toHaveProperty('spanId');
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const modules = probe.loaded();
    // The probe saw the server's modules (ESM and CommonJS), and none of OpenTelemetry's: no SDK, exporter,
    // instrumentation or module hook. The API package alone is there, as it was before tracing: prom-client requires
    // it for exemplars (a no-op without an SDK).
    expect(modules.some((url) => url.includes('/app/dist/bundle/server'))).toBe(true);
    expect(modules.some((path) => /node_modules\/.*better-sqlite3/.test(path))).toBe(true);
    expect(modules.filter((path) => /@opentelemetry\/(?!api\/)|in-the-middle/.test(path))).toEqual([]);
  }, 60_000);
});

describeWithPostgresAndRedis('traces of the built server on PostgreSQL and Redis', (servers) => {
  let receiver: OtlpReceiver;
  let server: ServerProcess;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    server = await spawnServer({
      DATABASE_URL: servers().postgres.url,
      REDIS_URL: servers().redis.url,
      NODE_ENV: 'production',
      ...tracingEnv(receiver),
    });
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  }, 30_000);

  it('nests the pg statements and the Redis calls of a request under its server span', async () => {
    const created = await runCli(['keys', 'create', '--plan', 'free'], { DATABASE_URL: servers().postgres.url });
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    const pet = (await (await postPet(server, key, 'Rex')).json()) as { id: number };
    const got = callerContext();
    expect((await fetch(`${server.url}/pets/${pet.id}`, { headers: { ...auth(key), traceparent: got.traceparent } })).status).toBe(200);

    const getSpan = await eventually(() => serverSpanOf(receiver, got.traceId), { timeoutMs: 30_000 });
    expect(getSpan).toMatchObject({ name: 'GET /v1/pets/{petId}', parentSpanId: got.parentSpanId });
    const children = await eventually(
      () => {
        const spans = childrenOf(receiver, getSpan);
        const pg = spans.find(
          (span) => span.scope === '@opentelemetry/instrumentation-pg' && /FROM "pets"/.test(String(span.attributes['db.query.text'])),
        );
        const redis = spans.find((span) => span.scope === '@opentelemetry/instrumentation-ioredis');
        return pg && redis && { pg, redis };
      },
      { timeoutMs: 30_000 },
    );
    expect(children.pg).toMatchObject({
      kind: CLIENT,
      name: 'pg.query:petstore_find_by_id petstore',
      attributes: { 'db.system.name': 'postgresql' },
    });
    // The rate-limit scripts: EVALSHA (EVAL once, when Redis does not have the script yet).
    expect(children.redis).toMatchObject({
      kind: CLIENT,
      name: expect.stringMatching(/^evalsha$|^eval$/),
      attributes: { 'db.system.name': 'redis' },
    });
    for (const body of receiver.bodies()) expect(body).not.toContain(key);
  }, 120_000);
});
