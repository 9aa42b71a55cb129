// Embedding the domain in your own service: every use case from one call, with in-memory adapters (swap in
// @petstore/persistence-typeorm or your own adapters for real storage). No HTTP, no framework.
import { createPetStore, InMemoryRateLimitStore, SystemClock } from '@petstore/core';
import {
  FakeWebhookTargets,
  InMemoryAuditLog,
  InMemoryIdempotencyStore,
  InMemoryKeyStore,
  InMemoryKeyUsageStore,
  InMemoryPetRepository,
  InMemoryWebhookStore,
  RecordingWebhookSender,
} from '@petstore/core/testing';

// The repository records an event with each change; it is the EventLog the webhook deliveries read too.
const pets = new InMemoryPetRepository();
const webhooks = new InMemoryWebhookStore(pets);
const store = createPetStore({
  pets,
  events: pets,
  webhookEndpoints: webhooks,
  deliveries: webhooks,
  webhookHistory: webhooks,
  // Targets and a sender that send nothing: the server's (@petstore/app) check addresses and POST over HTTPS.
  webhookTargets: new FakeWebhookTargets(),
  webhookSender: new RecordingWebhookSender(),
  keys: new InMemoryKeyStore(),
  rateLimits: new InMemoryRateLimitStore(),
  idempotency: new InMemoryIdempotencyStore(),
  auditLog: new InMemoryAuditLog(),
  keyUsage: new InMemoryKeyUsageStore(),
  clock: new SystemClock(),
});

// Every administrative action names who made it, for the audit trail.
const { key, secret } = await store.issueApiKey.execute({ plan: 'pro', name: 'front desk', scopes: ['pets:read', 'pets:write'] }, 'cli');
const { rateLimit } = await store.admitRequest.execute({ secret, clientAddress: '203.0.113.7', scope: 'pets:write' });
console.log(`${key.id} admitted: ${rateLimit.remaining} of ${rateLimit.limit} requests left this minute`);

await store.createPet.execute({ name: 'Rex', categoryId: 1 });
await store.createPet.execute({ name: 'Mia', categoryId: 2, status: 'pending' });
const page = await store.listPets.execute({ status: 'pending' });
console.log('pending:', page.pets);

try {
  await store.createPet.execute({ name: '', categoryId: 1.5 });
} catch (error) {
  // Domain errors carry a stable code: switch on it, never on the class.
  console.log('refused:', (error as { code: string }).code);
}
