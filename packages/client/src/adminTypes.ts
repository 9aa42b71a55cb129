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

/** A webhook endpoint as the admin API shows it: never its secret. */
export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
/** A webhook endpoint and its signing secret (`secret`), as createWebhookEndpoint and rotateWebhookSecret answer it. */
export type IssuedWebhookEndpoint = components['schemas']['IssuedWebhookEndpoint'];
/** The body of createWebhookEndpoint: `url` required. */
export type NewWebhookEndpoint = components['schemas']['NewWebhookEndpoint'];
/** The body of updateWebhookEndpoint: the settings to change. */
export type WebhookEndpointUpdate = components['schemas']['WebhookEndpointUpdate'];
/** One page of listWebhookEndpoints. */
export type WebhookEndpointPage = components['schemas']['WebhookEndpoints'];
/** One attempt of a delivery, as the delivery log shows it. */
export type DeliveryAttempt = components['schemas']['DeliveryAttempt'];
/** One page of listWebhookDeliveries. */
export type DeliveryAttemptPage = components['schemas']['DeliveryAttempts'];
/** A recorded event, with the payload its webhooks carry. */
export type StoreEvent = components['schemas']['Event'];
/** One page of listEvents. */
export type StoreEventPage = components['schemas']['Events'];
/** What resendWebhookEvent answers: the new delivery. */
export type ResendAccepted = components['schemas']['ResendAccepted'];

/** What getOverview answers: this instance's `/v1` answers and `429`s since it started, and the webhook backlog. */
export type Overview = components['schemas']['Overview'];
/** The query of the admin API's listPets: `status`, `limit`, `cursor` (from the previous page's `nextCursor`). */
export type AdminListPetsQuery = NonNullable<operations['listPets']['parameters']['query']>;

export type ListKeysQuery = NonNullable<operations['listKeys']['parameters']['query']>;
export type KeyUsageQuery = NonNullable<operations['getKeyUsage']['parameters']['query']>;
export type ListAuditEventsQuery = NonNullable<operations['listAuditEvents']['parameters']['query']>;
/** `limit` and `cursor` of the webhook listings and listEvents. */
export type PageQuery = NonNullable<operations['listEvents']['parameters']['query']>;
