import { InMemoryRateLimitStore } from '../adapters/InMemoryRateLimitStore.js';
import type { PetStorePorts } from '../createPetStore.js';
import { FakeClock } from './FakeClock.js';
import { InMemoryAuditLog } from './InMemoryAuditLog.js';
import { InMemoryIdempotencyStore } from './InMemoryIdempotencyStore.js';
import { InMemoryKeyStore } from './InMemoryKeyStore.js';
import { InMemoryKeyUsageStore } from './InMemoryKeyUsageStore.js';
import { InMemoryPetRepository } from './InMemoryPetRepository.js';

/** Every port as a fresh in-memory adapter, with a settable clock: `createPetStore(inMemoryPorts())`. */
export interface InMemoryPorts extends PetStorePorts {
  pets: InMemoryPetRepository;
  keys: InMemoryKeyStore;
  rateLimits: InMemoryRateLimitStore;
  idempotency: InMemoryIdempotencyStore;
  auditLog: InMemoryAuditLog;
  keyUsage: InMemoryKeyUsageStore;
  clock: FakeClock;
}

export function inMemoryPorts(now?: Date | string): InMemoryPorts {
  const clock = new FakeClock(now);
  return {
    pets: new InMemoryPetRepository(clock),
    keys: new InMemoryKeyStore(),
    rateLimits: new InMemoryRateLimitStore(),
    idempotency: new InMemoryIdempotencyStore(),
    auditLog: new InMemoryAuditLog(),
    keyUsage: new InMemoryKeyUsageStore(),
    clock,
  };
}
