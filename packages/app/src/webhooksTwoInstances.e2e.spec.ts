import { expect, it } from '@jest/globals';
import { eventually, issueUnlimitedKey } from '@petstore/test-support';
import { describeWithPostgres } from '@petstore/test-support/jest';
import { twoInstances } from './testing/twoInstances.js';
import { startWebhookReceiver } from './testing/webhookReceiver.js';
import { admin, createPet, FAST_WEBHOOKS } from './testing/webhookScenario.js';

describeWithPostgres('webhooks from two instances sharing PostgreSQL', (postgres) => {
  const instances = twoInstances(() => ({ DATABASE_URL: postgres().url, ...FAST_WEBHOOKS }));

  it('delivers each event once, whichever instance recorded it, with the deliveries claimed with SKIP LOCKED', async () => {
    const key = await issueUnlimitedKey(instances.a);
    const receiver = await startWebhookReceiver();
    try {
      const { json: endpoint } = await admin(instances.a, 'POST', '/webhook-endpoints', { url: receiver.url, eventTypes: ['pet.created'] });
      const count = 60;
      await Promise.all(Array.from({ length: count }, (_, i) => createPet(i % 2 ? instances.a : instances.b, key, `pet ${i}`)));
      await eventually(() => new Set(receiver.received.map((r) => r.headers['webhook-id'])).size === count);
      const log = async () =>
        (await admin(instances.b, 'GET', `/webhook-endpoints/${String(endpoint['id'])}/deliveries?limit=100`)).json['attempts'] as unknown[];
      await eventually(async () => (await log()).length === count);
      const payloads = receiver.verifyAll(String(endpoint['secret'])) as { data: { name: string } }[];
      expect(receiver.received).toHaveLength(count);
      expect(new Set(payloads.map((p) => p.data.name)).size).toBe(count);
    } finally {
      await receiver.close();
    }
  }, 90_000);
});
