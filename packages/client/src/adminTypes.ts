import type { components, operations } from './admin.generated.js';

/** An API key as the admin API shows it: never its secret. */
export type ApiKey = components['schemas']['ApiKey'];
/** An API key and its secret (`key`), as createKey and rotateKey answer it: the only time the secret is shown. */
export type IssuedApiKey = components['schemas']['IssuedApiKey'];
/** The body of createKey: `plan` required. */
export type NewApiKey = components['schemas']['NewApiKey'];
/** The body of updateKey: the settings to change. */
export type ApiKeyUpdate = components['schemas']['ApiKeyUpdate'];
/** The body of rotateKey: the grace period of the replaced secret. */
export type Rotation = components['schemas']['Rotation'];
/** One page of listKeys. */
export type ApiKeyPage = components['schemas']['ApiKeys'];
/** A key's requests per UTC day. */
export type KeyUsage = components['schemas']['KeyUsage'];
export type AuditEvent = components['schemas']['AuditEvent'];
/** One page of listAuditEvents. */
export type AuditEventPage = components['schemas']['AuditEvents'];

export type ListKeysQuery = NonNullable<operations['listKeys']['parameters']['query']>;
export type KeyUsageQuery = NonNullable<operations['getKeyUsage']['parameters']['query']>;
export type ListAuditEventsQuery = NonNullable<operations['listAuditEvents']['parameters']['query']>;
