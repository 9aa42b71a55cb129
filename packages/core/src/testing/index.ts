export { FakeClock } from './FakeClock.js';
export { InMemoryPetRepository } from './InMemoryPetRepository.js';
export { InMemoryKeyStore } from './InMemoryKeyStore.js';
export { InMemoryRateLimitStore } from '../access/InMemoryRateLimitStore.js';
export { aPetDraft, anApiKey } from './builders.js';
export { describePetRepositoryContract, type PetRepositoryHarness } from './contracts/PetRepositoryContract.js';
export { describeKeyStoreContract, type KeyStoreHarness } from './contracts/KeyStoreContract.js';
export { describeRateLimitStoreContract, type RateLimitStoreHarness } from './contracts/RateLimitStoreContract.js';
