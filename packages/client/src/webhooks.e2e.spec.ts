import { createServer, type IncomingHttpHeaders } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@petstore/test-support';
import { spawnServer, STOPPED_AT_ONCE, type ServerProcess } from './testing/builtServer.js';
import { createAdminClient, createClient, type AdminClient } from './index.js';
import { createWebhookVerifier, WebhookVerificationError, type PetstoreWebhook } from './webhooks.js';

const ADMIN_TOKEN = 'client-webhooks-e2e-token-4b8e2f6a0c3d7e1f5a9b2c6d0e4f8a1b';

// The admin client's webhook operations and the verifier, against the built server and a receiver on loopback.
describe('webhooks with the client', () => {
  let work: string;
  let server: ServerProcess;
  let admin: AdminClient;
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  let receiverUrl: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'petstore-client-webhooks-'));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    server = await spawnServer({
      ...STOPPED_AT_ONCE,
      DATABASE_URL: `sqlite:${join(work, 'pets.db')}`,
      ADMIN_TOKEN,
      ADMIN_PORT: '0',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '50',
    });
    admin = createAdminClient({ baseUrl: server.adminUrl!, adminToken: ADMIN_TOKEN });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await rm(work, { recursive: true, force: true });
  });

  it('subscribes an endpoint, verifies what it receives into typed events, and replays one', async () => {
    const endpoint = await admin.createWebhookEndpoint({ url: receiverUrl, description: 'client test' });
    const { key } = await admin.createKey({ plan: 'pro' });
    const client = createClient({ baseUrl: server.url, apiKey: key });
    const rex = await client.createPet({ name: 'Rex', categoryId: 1 });
    await client.updatePet(rex.id, { status: 'sold' });
    await eventually(() => received.length === 2);

    const verifier = createWebhookVerifier(endpoint.secret);
    const events: PetstoreWebhook[] = received.map(({ headers, body }) => verifier.verify(body, headers));
    const updated = events.find((e) => e.type === 'pet.updated');
    if (updated?.type !== 'pet.updated') throw new Error('no pet.updated received');
    expect(updated.data).toEqual({ ...rex, status: 'sold', version: 2, previous: { status: 'available' } });
    expect(events.map((e) => e.id).sort()).toEqual((await admin.listEvents()).events.map((e) => e.id).sort());

    expect(() => createWebhookVerifier(endpoint.secret).verify(`${received[0]!.body} `, received[0]!.headers)).toThrow(WebhookVerificationError);
    const rotated = await admin.rotateWebhookSecret(endpoint.id);
    const resent = await admin.resendWebhookEvent(endpoint.id, updated.id);
    expect(resent).toMatchObject({ eventId: updated.id, endpointId: endpoint.id });
    await eventually(() => received.length === 3);
    // Signed with both secrets during the grace period: a receiver with either verifies it.
    for (const secret of [endpoint.secret, rotated.secret])
      expect(createWebhookVerifier(secret).verify(received[2]!.body, received[2]!.headers).id).toBe(updated.id);

    expect((await admin.listWebhookDeliveries(endpoint.id)).attempts).toHaveLength(3);
    expect(await admin.updateWebhookEndpoint(endpoint.id, { disabled: true })).toMatchObject({ disabled: true, disabledReason: 'manual' });
    expect((await admin.listWebhookEndpoints()).endpoints.map((e) => e.id)).toEqual([endpoint.id]);
    await admin.deleteWebhookEndpoint(endpoint.id);
    await expect(admin.getWebhookEndpoint(endpoint.id)).rejects.toMatchObject({ code: 'not_found' });
  }, 60_000);
});
