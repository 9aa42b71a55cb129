import { InMemoryRateLimitStore } from '../adapters/InMemoryRateLimitStore.js';
import type { PetStorePorts } from '../createPetStore.js';
import { FakeClock } from './FakeClock.js';
import { InMemoryAuditLog } from './InMemoryAuditLog.js';
import { InMemoryIdempotencyStore } from './InMemoryIdempotencyStore.js';
import { InMemoryKeyStore } from './InMemoryKeyStore.js';
import { InMemoryKeyUsageStore } from './InMemoryKeyUsageStore.js';
import { FakeWebhookTargets } from './FakeWebhookTargets.js';
import { InMemoryPetRepository } from './InMemoryPetRepository.js';
import { InMemoryWebhookStore } from './InMemoryWebhookStore.js';
import { RecordingWebhookSender } from './RecordingWebhookSender.js';

/** Every port as a fresh in-memory adapter, with a settable clock: `createPetStore(inMemoryPorts())`. */
export interface InMemoryPorts extends PetStorePorts {
  pets: InMemoryPetRepository;
  keys: InMemoryKeyStore;
  rateLimits: InMemoryRateLimitStore;
  idempotency: InMemoryIdempotencyStore;
  auditLog: InMemoryAuditLog;
  keyUsage: InMemoryKeyUsageStore;
  events: InMemoryPetRepository;
  webhookEndpoints: InMemoryWebhookStore;
  deliveries: InMemoryWebhookStore;
  webhookHistory: InMemoryWebhookStore;
  webhookTargets: FakeWebhookTargets;
  webhookSender: RecordingWebhookSender;
  clock: FakeClock;
}

export function inMemoryPorts(now?: Date | string): InMemoryPorts {
  const clock = new FakeClock(now);
  const pets = new InMemoryPetRepository(clock);
  const webhooks = new InMemoryWebhookStore(pets);
  return {
    pets,
    events: pets,
    webhookEndpoints: webhooks,
    deliveries: webhooks,
    webhookHistory: webhooks,
    webhookTargets: new FakeWebhookTargets(),
    webhookSender: new RecordingWebhookSender(),
    keys: new InMemoryKeyStore(),
    rateLimits: new InMemoryRateLimitStore(),
    idempotency: new InMemoryIdempotencyStore(),
    auditLog: new InMemoryAuditLog(),
    keyUsage: new InMemoryKeyUsageStore(),
    clock,
  };
}
