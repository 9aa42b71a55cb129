import { InMemoryRateLimitStore } from '../adapters/InMemoryRateLimitStore.js';
import type { PetStorePorts } from '../createPetStore.js';
import { FakeClock } from './FakeClock.js';
import { InMemoryIdempotencyStore } from './InMemoryIdempotencyStore.js';
import { InMemoryKeyStore } from './InMemoryKeyStore.js';
import { InMemoryPetRepository } from './InMemoryPetRepository.js';

/** Every port as a fresh in-memory adapter, with a settable clock: `createPetStore(inMemoryPorts())`. */
export interface InMemoryPorts extends PetStorePorts {
  pets: InMemoryPetRepository;
  keys: InMemoryKeyStore;
  rateLimits: InMemoryRateLimitStore;
  idempotency: InMemoryIdempotencyStore;
  clock: FakeClock;
}

export function inMemoryPorts(now?: Date | string): InMemoryPorts {
  return {
    pets: new InMemoryPetRepository(),
    keys: new InMemoryKeyStore(),
    rateLimits: new InMemoryRateLimitStore(),
    idempotency: new InMemoryIdempotencyStore(),
    clock: new FakeClock(now),
  };
}
