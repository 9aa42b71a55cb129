import { InMemoryRateLimitStore } from '../adapters/InMemoryRateLimitStore.js';
import { describeIdempotencyStoreContract } from './contracts/IdempotencyStoreContract.js';
import { describeKeyStoreContract } from './contracts/KeyStoreContract.js';
import { describePetRepositoryContract } from './contracts/PetRepositoryContract.js';
import { describeRateLimitStoreContract } from './contracts/RateLimitStoreContract.js';
import { InMemoryIdempotencyStore } from './InMemoryIdempotencyStore.js';
import { InMemoryKeyStore } from './InMemoryKeyStore.js';
import { InMemoryPetRepository } from './InMemoryPetRepository.js';

describePetRepositoryContract('InMemoryPetRepository', async () => ({ repository: new InMemoryPetRepository() }));
describeKeyStoreContract('InMemoryKeyStore', async () => ({ store: new InMemoryKeyStore() }));
describeRateLimitStoreContract('InMemoryRateLimitStore', async () => ({ store: new InMemoryRateLimitStore() }));
describeIdempotencyStoreContract('InMemoryIdempotencyStore', async () => ({ store: new InMemoryIdempotencyStore() }));
