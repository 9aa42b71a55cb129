import type { EntitySchema } from 'typeorm';
import type { Dialect } from '../dialect.js';
import { apiKeySchema } from './ApiKeySchema.js';
import { auditEventSchema } from './AuditEventSchema.js';
import { idempotencyKeySchema } from './IdempotencyKeySchema.js';
import { keyLastUseSchema, keyUsageDaySchema } from './KeyUsageSchemas.js';
import { petEventSchema } from './PetEventSchema.js';
import { petSchema } from './PetSchema.js';
import { rateLimitBanSchema } from './RateLimitBanSchema.js';
import {
  webhookAttemptSchema,
  webhookDeliverySchema,
  webhookDispatchHeadSchema,
  webhookEndpointHoldSchema,
  webhookEndpointSchema,
} from './WebhookSchemas.js';

/**
 * Every table of the pet store as TypeORM entity schemas, for a DataSource on `dialect`: add them (and `migrations`)
 * to your own DataSource to run the pet store's adapters on it. They describe what the migrations create; they
 * never create anything themselves (keep `synchronize` off).
 */
export function petstoreEntities(dialect: Dialect): EntitySchema[] {
  return [
    petSchema(dialect),
    petEventSchema(dialect),
    apiKeySchema(dialect),
    idempotencyKeySchema(dialect),
    auditEventSchema(dialect),
    keyUsageDaySchema(dialect),
    keyLastUseSchema(dialect),
    rateLimitBanSchema(dialect),
    webhookEndpointSchema(dialect),
    webhookDeliverySchema(dialect),
    webhookAttemptSchema(dialect),
    webhookDispatchHeadSchema(dialect),
    webhookEndpointHoldSchema(dialect),
  ] as EntitySchema[];
}
