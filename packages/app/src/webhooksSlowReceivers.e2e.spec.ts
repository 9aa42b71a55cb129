import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, issueUnlimitedKey, spawnServer, type ServerProcess } from '@petstore/test-support';
import { startWebhookReceiver, type WebhookReceiver } from './testing/webhookReceiver.js';
import { admin, createPet, FAST_WEBHOOKS, type Json } from './testing/webhookScenario.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-slow-receivers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** How long after its change each event reached the receiver (the server and the test share the clock), in ms. */
const lagsOf = (receiver: WebhookReceiver, path: string) =>
  receiver.received.filter((r) => r.path === path).map((r) => r.at - Date.parse((JSON.parse(r.body) as { timestamp: string }).timestamp));

describe('webhooks beside receivers that drip, hang or never answer, from the built server', () => {
  const databaseUrl = `sqlite:${join(dir, 'slow.db')}`;
  const timeoutMs = 2_000;
  let key: string;
  let server: ServerProcess;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    receiver.answer = (received) => {
      const path = received.at(-1)!.path;
      return path === '/drip' ? 'drip' : path.startsWith('/dead/') ? 'hang' : 204;
    };
    // Retries 5 s apart: an attempt still under way when its claim ran out would be sent again within the test.
    server = await spawnServer({
      DATABASE_URL: databaseUrl,
      ...FAST_WEBHOOKS,
      WEBHOOK_TIMEOUT_MS: String(timeoutMs),
      WEBHOOK_RETRY_SCHEDULE_MS: '5000',
    });
    key = await issueUnlimitedKey(server);
  }, 30_000);
  afterAll(async () => {
    await server.stop();
    await receiver.close();
  });

  const subscribe = async (path: string) => {
    const created = await admin(server, 'POST', '/webhook-endpoints', { url: receiver.url.replace('/hooks', path) });
    expect(created.status).toBe(201);
    return created.json as Json & { id: string };
  };

  it('cuts a dripping answer at the deadline, headers and body together, while other endpoints are served at once', async () => {
    const drip = await subscribe('/drip');
    await subscribe('/healthy');
    for (const name of ['Rex', 'Max', 'Kit']) await createPet(server, key, name);
    await eventually(() => lagsOf(receiver, '/healthy').length === 3);
    expect(Math.max(...lagsOf(receiver, '/healthy'))).toBeLessThan(1_000);
    // Each delivery has two attempts (the schedule has one retry); the endpoint is disabled once one has had both.
    await eventually(async () => (await admin(server, 'GET', `/webhook-endpoints/${drip.id}`)).json['disabled'] === true, { timeoutMs: 40_000 });
    const attempts = (await admin(server, 'GET', `/webhook-endpoints/${drip.id}/deliveries`)).json['attempts'] as Json[];
    const sent = attempts.filter((a) => a['statusCode'] === 200);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const attempt of sent) {
      expect(attempt).toMatchObject({ succeeded: false, error: `no complete answer in ${timeoutMs} ms` });
      expect(attempt['durationMs']).toBeGreaterThanOrEqual(timeoutMs);
      expect(attempt['durationMs']).toBeLessThan(timeoutMs + 1_000);
    }
    // Every request the receiver got is one recorded attempt: none was sent again while under way.
    const requests = receiver.received.filter((r) => r.path === '/drip');
    expect(requests).toHaveLength(sent.length);
    const perEvent = new Map<string, number>();
    for (const r of requests) perEvent.set(String(r.headers['webhook-id']), (perEvent.get(String(r.headers['webhook-id'])) ?? 0) + 1);
    expect(Math.max(...perEvent.values())).toBe(2);
  }, 90_000);

  it("delivers a healthy endpoint's events within a second beside 500 endpoints that never answer, at 100 changes a second", async () => {
    for (let i = 0; i < 500; i++) await subscribe(`/dead/${i}`);
    const healthy = '/healthy-beside-dead';
    await subscribe(healthy);
    // 100 changes a second for 3 seconds, each at its time: each would go to 501 endpoints; the dead ones are held.
    const start = Date.now();
    for (let i = 0; i < 300; i++) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + 10 * i - Date.now())));
      await createPet(server, key, `Pet ${i}`);
    }
    await eventually(() => lagsOf(receiver, healthy).length === 300, { timeoutMs: 20_000 });
    const lags = lagsOf(receiver, healthy).sort((a, b) => a - b);
    // 1 s is the target on a quiet machine (`pnpm bench --webhooks --dead-endpoints`). The test's requests and receiver
    // share this machine, and the first changes wait for the 501 probes of the endpoints just created, so: nine in ten
    // within a second, every one within two (the lag grew past four seconds when each change went to every endpoint).
    const at = (share: number) => lags[Math.min(lags.length - 1, Math.floor(share * lags.length))]!;
    const spread = { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: lags.at(-1)!, slowest: lags.slice(-10) };
    expect({ met: spread.p90 < 1_000 && spread.max < 2_000, spread }).toEqual({ met: true, spread });
    // Every event is delivered once.
    expect(new Set(receiver.received.filter((r) => r.path === healthy).map((r) => r.headers['webhook-id'])).size).toBe(300);
    // The dead endpoints were tried (a probe each), one attempt at a time each.
    const dead = receiver.received.filter((r) => r.path.startsWith('/dead/'));
    expect(new Set(dead.map((r) => r.path)).size).toBeGreaterThan(400);
    const perPath = new Map<string, number>();
    for (const r of dead) perPath.set(r.path, (perPath.get(r.path) ?? 0) + 1);
    expect(Math.max(...perPath.values())).toBeLessThanOrEqual(10);
  }, 120_000);

  it('stops within the timeout after SIGTERM, whatever the receivers are doing', async () => {
    await subscribe('/drip');
    await createPet(server, key, 'Last');
    await eventually(() => receiver.received.some((r) => r.path === '/drip' && r.body.includes('"Last"')));
    const stopping = Date.now();
    expect(await server.stop()).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(timeoutMs + 3_000);
  }, 60_000);
});
