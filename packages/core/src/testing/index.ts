// In-memory adapters, a settable clock and builders: plain Node, usable in any test runner or embedding.
export { FakeClock } from './FakeClock.js';
export { InMemoryPetRepository } from './InMemoryPetRepository.js';
export { InMemoryKeyStore } from './InMemoryKeyStore.js';
export { InMemoryIdempotencyStore } from './InMemoryIdempotencyStore.js';
export { InMemoryAuditLog } from './InMemoryAuditLog.js';
export { InMemoryKeyUsageStore } from './InMemoryKeyUsageStore.js';
export { InMemoryBanStore } from './InMemoryBanStore.js';
export { InMemoryWebhookStore } from './InMemoryWebhookStore.js';
export { FakeWebhookTargets } from './FakeWebhookTargets.js';
export { answers, RecordingWebhookSender } from './RecordingWebhookSender.js';

export { aPetDraft, anApiKey, anAuditEvent } from './builders.js';
export { inMemoryPorts, type InMemoryPorts } from './inMemoryPorts.js';
export { validationProblems } from './validationProblems.js';
