import { InMemoryRateLimitStore } from '../adapters/InMemoryRateLimitStore.js';
import { describeAuditLogContract } from './contracts/AuditLogContract.js';
import { describeBanStoreContract } from './contracts/BanStoreContract.js';
import { describeIdempotencyStoreContract } from './contracts/IdempotencyStoreContract.js';
import { describeKeyStoreContract } from './contracts/KeyStoreContract.js';
import { describeKeyUsageStoreContract } from './contracts/KeyUsageStoreContract.js';
import { describePetRepositoryContract } from './contracts/PetRepositoryContract.js';
import { describeWebhookHistoryContract } from './contracts/WebhookHistoryContract.js';
import { describeWebhookStoreContract } from './contracts/WebhookStoreContract.js';
import { InMemoryWebhookStore } from './InMemoryWebhookStore.js';
import { describeRateLimitStoreContract } from './contracts/RateLimitStoreContract.js';
import { InMemoryAuditLog } from './InMemoryAuditLog.js';
import { InMemoryBanStore } from './InMemoryBanStore.js';
import { InMemoryIdempotencyStore } from './InMemoryIdempotencyStore.js';
import { InMemoryKeyStore } from './InMemoryKeyStore.js';
import { InMemoryKeyUsageStore } from './InMemoryKeyUsageStore.js';
import { InMemoryPetRepository } from './InMemoryPetRepository.js';

describePetRepositoryContract('InMemoryPetRepository', async () => {
  const repository = new InMemoryPetRepository();
  return { repository, events: repository };
});
describeKeyStoreContract('InMemoryKeyStore', async () => ({ store: new InMemoryKeyStore() }));
describeRateLimitStoreContract('InMemoryRateLimitStore', async () => ({ store: new InMemoryRateLimitStore() }));
describeIdempotencyStoreContract('InMemoryIdempotencyStore', async () => ({ store: new InMemoryIdempotencyStore() }));
describeAuditLogContract('InMemoryAuditLog', async () => ({ log: new InMemoryAuditLog() }));
describeKeyUsageStoreContract('InMemoryKeyUsageStore', async () => ({ store: new InMemoryKeyUsageStore() }));
describeBanStoreContract('InMemoryBanStore', async () => ({ store: new InMemoryBanStore() }));

describeWebhookStoreContract('InMemoryWebhookStore', async () => {
  const pets = new InMemoryPetRepository();
  const store = new InMemoryWebhookStore(pets);
  return { pets, endpoints: store, queue: store };
});
describeWebhookHistoryContract('InMemoryWebhookStore', async () => {
  const pets = new InMemoryPetRepository();
  const store = new InMemoryWebhookStore(pets);
  return { history: store, pets, events: pets, endpoints: store, queue: store };
});
