// Port contract suites: run them in Jest against any adapter of your own (they import @jest/globals).
export { describePetRepositoryContract, type PetRepositoryHarness } from './PetRepositoryContract.js';
export { describeKeyStoreContract, type KeyStoreHarness } from './KeyStoreContract.js';
export { describeRateLimitStoreContract, type RateLimitStoreHarness } from './RateLimitStoreContract.js';
export { describeIdempotencyStoreContract, type IdempotencyStoreHarness } from './IdempotencyStoreContract.js';
export { describeAuditLogContract, type AuditLogHarness } from './AuditLogContract.js';
export { describeKeyUsageStoreContract, type KeyUsageStoreHarness } from './KeyUsageStoreContract.js';
export { describeBanStoreContract, type BanStoreHarness } from './BanStoreContract.js';
export { describeWebhookStoreContract, type WebhookStoreHarness } from './WebhookStoreContract.js';
export { describeWebhookHistoryContract, type WebhookHistoryHarness } from './WebhookHistoryContract.js';
