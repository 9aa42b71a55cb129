import type { PetStorePorts } from '@petstore/core';
import type { DataSource } from 'typeorm';
import { TypeOrmAuditLog } from './TypeOrmAuditLog.js';
import { TypeOrmEventLog } from './TypeOrmEventLog.js';
import { TypeOrmIdempotencyStore } from './TypeOrmIdempotencyStore.js';
import { TypeOrmKeyStore } from './TypeOrmKeyStore.js';
import { TypeOrmKeyUsageStore } from './TypeOrmKeyUsageStore.js';
import { TypeOrmPetRepository } from './TypeOrmPetRepository.js';
import { TypeOrmWebhookHistory } from './TypeOrmWebhookHistory.js';
import { TypeOrmWebhookStore } from './TypeOrmWebhookStore.js';

/** The ports this package stores in a database; `createPetStore` also needs rate limits, webhook targets and sender, and a clock. */
export type TypeOrmPorts = Pick<
  PetStorePorts,
  'pets' | 'events' | 'webhookEndpoints' | 'deliveries' | 'webhookHistory' | 'keys' | 'idempotency' | 'auditLog' | 'keyUsage'
>;

/** Each of those ports as this package's adapter, with its default options, all on one (migrated) DataSource. */
export function typeOrmPorts(dataSource: DataSource): TypeOrmPorts {
  const webhooks = new TypeOrmWebhookStore(dataSource);
  return {
    pets: new TypeOrmPetRepository(dataSource),
    events: new TypeOrmEventLog(dataSource),
    webhookEndpoints: webhooks,
    deliveries: webhooks,
    webhookHistory: new TypeOrmWebhookHistory(dataSource),
    keys: new TypeOrmKeyStore(dataSource),
    idempotency: new TypeOrmIdempotencyStore(dataSource),
    auditLog: new TypeOrmAuditLog(dataSource),
    keyUsage: new TypeOrmKeyUsageStore(dataSource),
  };
}
