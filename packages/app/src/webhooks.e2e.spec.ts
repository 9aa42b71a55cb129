import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { eventually, issueUnlimitedKey, spawnServer, STOPPED_AT_ONCE, type ServerProcess } from '@petstore/test-support';
import { startWebhookReceiver, type WebhookReceiver } from './testing/webhookReceiver.js';
import { ADMIN_TOKEN, admin, createPet, FAST_WEBHOOKS, type Json } from './testing/webhookScenario.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-webhooks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('webhooks from the built server, to a receiver on loopback that verifies them with standardwebhooks', () => {
  const databaseUrl = `sqlite:${join(dir, 'webhooks.db')}`;
  let key: string;
  let receiver: WebhookReceiver;
  // One server for the tests that do not restart it; each test subscribes a receiver of its own, which gets the
  // events recorded after it subscribed.
  let shared: ServerProcess;
  /** Every event dispatched and every delivery done, as /metrics shows it. */
  const nothingOwed = (text: string) => /^petstore_webhook_queue_depth 0$/m.test(text) && /^petstore_webhook_undispatched_events 0$/m.test(text);
  let server: ServerProcess | undefined;
  const start = async (env: Record<string, string> = {}) => (server = await spawnServer({ DATABASE_URL: databaseUrl, ...FAST_WEBHOOKS, ...env }));
  const subscribe = async (running: ServerProcess, body: Json = {}) => {
    const created = await admin(running, 'POST', '/webhook-endpoints', { url: receiver.url, ...body });
    expect(created.status).toBe(201);
    return created.json as Json & { id: string; secret: string };
  };

  beforeAll(async () => {
    shared = await spawnServer({ DATABASE_URL: databaseUrl, METRICS_PORT: '0', ...FAST_WEBHOOKS });
    key = await issueUnlimitedKey(shared);
  }, 30_000);
  afterAll(() => shared.stop());
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    await receiver.close();
  });

  it('delivers pet.created and pet.updated, signed, with the event id, the payload and the previous values', async () => {
    const running = shared;
    const { secret } = await subscribe(running);
    const rex = await createPet(running, key, 'Rex');
    const patched = await fetch(`${running.url}/pets/${String(rex['id'])}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ status: 'pending' }),
    });
    expect(patched.status).toBe(200);
    await eventually(() => receiver.received.length === 2);
    const payloads = receiver.verifyAll(secret) as { type: string; data: Json }[];
    const byType = Object.fromEntries(payloads.map((p) => [p.type, p]));
    expect(byType['pet.created']).toEqual({ type: 'pet.created', timestamp: expect.any(String), data: { ...rex, version: 1 } });
    expect(byType['pet.updated']).toEqual({
      type: 'pet.updated',
      timestamp: expect.any(String),
      data: { ...rex, status: 'pending', version: 2, previous: { status: 'available' } },
    });
    const events = (await admin(running, 'GET', '/events?limit=2')).json['events'] as { id: string; type: string }[];
    for (const { headers, body } of receiver.received) {
      const type = (JSON.parse(body) as { type: string }).type;
      expect(headers['webhook-id']).toBe(events.find((e) => e.type === type)!.id);
      expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    }
  }, 60_000);

  it('retries a receiver that fails, with the same webhook-id, until it recovers; the delivery log shows each attempt', async () => {
    const running = shared;
    const { id, secret } = await subscribe(running);
    receiver.answer = (received) => (received.length <= 2 ? 503 : 204);
    await createPet(running, key, 'Rex');
    await eventually(() => receiver.received.length === 3);
    receiver.verifyAll(secret);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    await eventually(async () => ((await admin(running, 'GET', `/webhook-endpoints/${id}/deliveries`)).json['attempts'] as unknown[]).length === 3);
    const attempts = (await admin(running, 'GET', `/webhook-endpoints/${id}/deliveries`)).json['attempts'] as Json[];
    expect(attempts.map((a) => [a['attempt'], a['statusCode'], a['succeeded']])).toEqual([
      [3, 204, true],
      [2, 503, false],
      [1, 503, false],
    ]);
    expect((await admin(running, 'GET', `/webhook-endpoints/${id}`)).json).toMatchObject({ disabled: false });
  }, 60_000);

  it('disables an endpoint that answers 410 Gone, and one that fails for the whole schedule; both audited', async () => {
    const running = shared;
    const gone = await subscribe(running);
    const failing = await admin(running, 'POST', '/webhook-endpoints', { url: receiver.url.replace('/hooks', '/failing') });
    receiver.answer = (received) => (received.at(-1)!.path === '/failing' ? 500 : 410);
    await createPet(running, key, 'Rex');
    await eventually(async () => (await admin(running, 'GET', `/webhook-endpoints/${gone.id}`)).json['disabledReason'] === 'gone');
    await eventually(
      async () => (await admin(running, 'GET', `/webhook-endpoints/${String(failing.json['id'])}`)).json['disabledReason'] === 'failing',
    );
    const ids = [gone.id, failing.json['id']];
    const actions = ((await admin(running, 'GET', '/audit-events?limit=100')).json['events'] as Json[]).filter(
      (e) => e['action'] === 'webhook.disabled' && ids.includes(e['endpointId']),
    );
    expect(actions.map((e) => [e['actor'], e['endpointId']]).sort()).toEqual(
      [
        ['system', gone.id],
        ['system', failing.json['id']],
      ].sort(),
    );
    const seen = receiver.received.length;
    await createPet(running, key, 'Max');
    // Nothing more reaches either: the next event is dispatched to no enabled endpoint.
    await eventually(async () => nothingOwed(await metrics(running)));
    expect(receiver.received.length).toBe(seen);
  }, 60_000);

  it("never writes an endpoint URL's query (a receiver's token) to the log: failures, refusals, disabling, changes", async () => {
    const running = shared;
    const token = 'query-token-5e0b9c3a7f1d';
    // Userinfo is refused at once, and the refused URL is not logged either.
    const withUserinfo = await admin(running, 'POST', '/webhook-endpoints', { url: receiver.url.replace('//', `//user:${token}@`) });
    expect(withUserinfo.status).toBe(400);
    const gone = await subscribe(running, { url: `${receiver.url}?token=${token}` });
    const unreachable = await subscribe(running, { url: `http://127.0.0.1:1/hooks?token=${token}` });
    receiver.answer = (received) => (received.length === 1 ? 503 : 410);
    await createPet(running, key, 'Rex');
    await eventually(async () => (await admin(running, 'GET', `/webhook-endpoints/${gone.id}`)).json['disabledReason'] === 'gone');
    await eventually(async () => (await admin(running, 'GET', `/webhook-endpoints/${unreachable.id}`)).json['disabledReason'] === 'failing');
    expect(receiver.received.map((r) => r.path)).toEqual([`/hooks?token=${token}`, `/hooks?token=${token}`]);
    expect((await admin(running, 'PATCH', `/webhook-endpoints/${gone.id}`, { url: `${receiver.url}?token=${token}2`, disabled: false })).status).toBe(
      200,
    );
    expect((await admin(running, 'DELETE', `/webhook-endpoints/${unreachable.id}`)).status).toBe(204);
    expect(running.output()).toContain('"msg":"admin request"');
    expect(running.output()).not.toContain(token);
  }, 60_000);

  it('serves the delivery metrics on /metrics', async () => {
    const running = shared;
    await subscribe(running);
    await createPet(running, key, 'Rex');
    await eventually(() => receiver.received.length === 1);
    await eventually(async () => nothingOwed(await metrics(running)));
    const text = await metrics(running);
    expect(text).toMatch(/^petstore_webhook_undispatched_events 0$/m);
    expect(text).toMatch(/^petstore_webhook_attempts_total\{outcome="succeeded"\} [1-9]/m);
    expect(text).toMatch(/^petstore_webhook_attempts_total\{outcome="failed"\} [1-9]/m);
    expect(text).toMatch(/^petstore_webhook_lag_seconds 0$/m);
    expect(text).toMatch(/^petstore_webhook_attempt_duration_seconds_count [1-9]/m);
  }, 60_000);
  it('delivers an event committed before a crash (SIGKILL mid-attempt) after the restart', async () => {
    await shared.stop();
    let running = await start({ WEBHOOK_TIMEOUT_MS: '300' });
    const { secret } = await subscribe(running);
    receiver.answer = () => 'hang';
    const rex = await createPet(running, key, 'Rex');
    await eventually(() => receiver.received.length === 1);
    await running.stop('SIGKILL');
    receiver.answer = () => 200;
    running = await start({ WEBHOOK_TIMEOUT_MS: '300' });
    await eventually(() => receiver.received.length >= 2);
    const payloads = receiver.verifyAll(secret) as { data: Json }[];
    expect(payloads.every((p) => p.data['id'] === rex['id'])).toBe(true);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
  }, 60_000);
});

describe('webhook targets, without WEBHOOK_ALLOW_PRIVATE_TARGETS', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await spawnServer({ ...STOPPED_AT_ONCE, DATABASE_URL: `sqlite:${join(dir, 'targets.db')}`, ADMIN_TOKEN, ADMIN_PORT: '0' });
  }, 30_000);
  afterAll(() => server.stop());

  it.each([
    ['http://127.0.0.1:9/hooks'],
    ['https://127.0.0.1/hooks'],
    ['https://localhost/hooks'],
    ['https://169.254.169.254/latest'],
    ['https://[::1]/'],
    ['https://10.1.2.3/'],
    ['https://[::ffff:192.168.0.1]/'],
  ])(
    'refuses %s with 400 and stores nothing',
    async (url) => {
      const created = await admin(server, 'POST', '/webhook-endpoints', { url });
      expect(created.status).toBe(400);
      expect(created.json).toMatchObject({ code: 'validation_error', details: [expect.objectContaining({ field: 'url' })] });
      expect((await admin(server, 'GET', '/webhook-endpoints')).json['endpoints']).toEqual([]);
    },
    30_000,
  );
});

async function metrics(server: ServerProcess): Promise<string> {
  const port = /metrics on port (\d+)/.exec(server.output())?.[1];
  return (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
}
