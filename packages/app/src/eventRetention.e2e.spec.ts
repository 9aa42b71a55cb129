import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { betterSqlite3 } from '@petstore/persistence-typeorm';
import { eventually, issueUnlimitedKey, spawnServer, type ServerProcess } from '@petstore/test-support';
import { startWebhookReceiver, type WebhookReceiver } from './testing/webhookReceiver.js';
import { admin, createPet, FAST_WEBHOOKS, type Json } from './testing/webhookScenario.js';

const Database = betterSqlite3();
const dir = mkdtempSync(join(tmpdir(), 'petstore-retention-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAY_MS = 86_400_000;

describe('EVENT_RETENTION: the built server deletes events, deliveries and attempts older than it, in the background', () => {
  const path = join(dir, 'retention.db');
  let server: ServerProcess;
  let key: string;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    // The shortest retention, so that the server purges every second; retries an hour apart keep a failing
    // delivery pending for the whole test.
    server = await spawnServer({ ...FAST_WEBHOOKS, DATABASE_URL: `sqlite:${path}`, EVENT_RETENTION: '10s', WEBHOOK_RETRY_SCHEDULE_MS: '3600000' });
    key = await issueUnlimitedKey(server);
  }, 30_000);
  afterAll(async () => {
    await server.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });

  const subscribe = async (answer: number, body: Json = {}) => {
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    receiver.answer = () => answer;
    const created = await admin(server, 'POST', '/webhook-endpoints', { url: receiver.url, ...body });
    expect(created.status).toBe(201);
    return { receiver, id: (created.json as { id: string }).id };
  };
  const attemptsOf = async (endpointId: string) =>
    ((await admin(server, 'GET', `/webhook-endpoints/${endpointId}/deliveries`)).json['attempts'] as { eventId: string }[]).length;
  const listed = async () => (await admin(server, 'GET', '/events?limit=100')).json as { events: { id: string; type: string }[] };

  it('keeps what is younger, and an event still owed to an endpoint whatever its age', async () => {
    const healthy = await subscribe(204);
    const failing = await subscribe(503, { eventTypes: ['pet.updated'] });
    const pets = [await createPet(server, key, 'Rex'), await createPet(server, key, 'Mia')];
    const changed = await fetch(`${server.url}/pets/${String(pets[0]!['id'])}`, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ status: 'pending' }),
    });
    expect(changed.status).toBe(200);
    await eventually(async () => (await attemptsOf(healthy.id)) === 3 && (await attemptsOf(failing.id)) === 1);
    const [owed] = (await listed()).events.filter((e) => e.type === 'pet.updated');

    // A day passes for everything recorded so far (the rows are dated back, as a stopped clock would see them).
    const db = new Database(path);
    try {
      db.prepare('UPDATE "pet_events" SET "at_ms" = "at_ms" - ?').run(DAY_MS);
      db.prepare('UPDATE "webhook_attempts" SET "at_ms" = "at_ms" - ?').run(DAY_MS);
      db.prepare(`UPDATE "webhook_deliveries" SET "due_at_ms" = "due_at_ms" - ? WHERE "state" <> 'pending'`).run(DAY_MS);
    } finally {
      db.close();
    }
    await eventually(
      async () => (await listed()).events.length === 1 && (await attemptsOf(healthy.id)) === 0 && (await attemptsOf(failing.id)) === 0,
      {
        timeoutMs: 15_000,
      },
    );
    // The event the failing endpoint still waits for is kept (its retry reads it), and listed.
    expect((await listed()).events.map((e) => e.id)).toEqual([owed!.id]);
    // Requests go on meanwhile, and new events are kept and delivered.
    await createPet(server, key, 'Kit');
    await eventually(() => healthy.receiver.received.length === 4);
    expect((await listed()).events).toHaveLength(2);
  }, 60_000);
});
