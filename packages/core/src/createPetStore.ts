import type { BanRule } from './access/BanRule.js';
import { AuditedPetRepository } from './adapters/AuditedPetRepository.js';
import type { AuditLog } from './ports/AuditLog.js';
import type { Clock } from './ports/Clock.js';
import type { DeliveryQueue } from './ports/DeliveryQueue.js';
import type { EventLog } from './ports/EventLog.js';
import type { WebhookEndpointStore } from './ports/WebhookEndpointStore.js';
import type { WebhookHistory } from './ports/WebhookHistory.js';
import type { WebhookSender } from './ports/WebhookSender.js';
import type { WebhookTargets } from './ports/WebhookTargets.js';
import type { IdempotencyStore } from './ports/IdempotencyStore.js';
import type { KeyStore } from './ports/KeyStore.js';
import type { KeyUsageStore } from './ports/KeyUsageStore.js';
import type { PetRepository } from './ports/PetRepository.js';
import type { RateLimitStore } from './ports/RateLimitStore.js';
import { AdmitRequest } from './use-cases/AdmitRequest.js';
import { AdmitUsageQuery } from './use-cases/AdmitUsageQuery.js';
import { AuthenticateCaller } from './use-cases/AuthenticateCaller.js';
import { AuthenticateKey } from './use-cases/AuthenticateKey.js';
import { ConfirmAdmission } from './use-cases/ConfirmAdmission.js';
import { CreatePet } from './use-cases/CreatePet.js';
import { CreatePetIdempotently } from './use-cases/CreatePetIdempotently.js';
import { CreateWebhookEndpoint } from './use-cases/CreateWebhookEndpoint.js';
import { DeleteWebhookEndpoint } from './use-cases/DeleteWebhookEndpoint.js';
import { DeliverWebhooks, type DeliveryObserver, type DeliveryOptions } from './use-cases/DeliverWebhooks.js';
import { GetWebhookEndpoint } from './use-cases/GetWebhookEndpoint.js';
import { ListEvents } from './use-cases/ListEvents.js';
import { ListWebhookDeliveries } from './use-cases/ListWebhookDeliveries.js';
import { ListWebhookEndpoints } from './use-cases/ListWebhookEndpoints.js';
import { PurgeWebhookHistory } from './use-cases/PurgeWebhookHistory.js';
import { ResendWebhookEvent } from './use-cases/ResendWebhookEvent.js';
import { RotateWebhookSecret } from './use-cases/RotateWebhookSecret.js';
import { UpdateWebhookEndpoint } from './use-cases/UpdateWebhookEndpoint.js';
import { WebhookAudit } from './use-cases/WebhookAudit.js';
import type { IdempotencyOptions } from './use-cases/IdempotentWrites.js';
import { EnforceRateLimit } from './use-cases/EnforceRateLimit.js';
import { GetApiKey } from './use-cases/GetApiKey.js';
import { GetApiKeyUsage } from './use-cases/GetApiKeyUsage.js';
import { GetPet } from './use-cases/GetPet.js';
import { GetRateLimitUsage } from './use-cases/GetRateLimitUsage.js';
import { IssueApiKey } from './use-cases/IssueApiKey.js';
import { KeyAudit } from './use-cases/KeyAudit.js';
import { KeyUsageRecorder } from './use-cases/KeyUsageRecorder.js';
import { KeyViews } from './use-cases/KeyViews.js';
import { ListApiKeys } from './use-cases/ListApiKeys.js';
import { ListAuditEvents } from './use-cases/ListAuditEvents.js';
import { ListPets } from './use-cases/ListPets.js';
import { RefundRequest } from './use-cases/RefundRequest.js';
import { RevokeApiKey } from './use-cases/RevokeApiKey.js';
import { RotateApiKey } from './use-cases/RotateApiKey.js';
import { UnbanApiKey } from './use-cases/UnbanApiKey.js';
import { UpdateApiKey } from './use-cases/UpdateApiKey.js';
import { UpdatePet } from './use-cases/UpdatePet.js';
import { UpdatePetIdempotently } from './use-cases/UpdatePetIdempotently.js';

/** The adapters the use cases need, one per port. */
export interface PetStorePorts {
  pets: PetRepository;
  keys: KeyStore;
  rateLimits: RateLimitStore;
  idempotency: IdempotencyStore;
  /** Where every administrative action on keys is recorded. */
  auditLog: AuditLog;
  /** Where the keys' last use and usage per day are flushed. */
  keyUsage: KeyUsageStore;
  /** The events the pet repository records with each change. */
  events: EventLog;
  webhookEndpoints: WebhookEndpointStore;
  deliveries: DeliveryQueue;
  /** The events, deliveries and attempts, deleted once older than the retention; without it, nothing is deleted. */
  webhookHistory?: WebhookHistory;
  /** Which URLs may receive webhooks. */
  webhookTargets: WebhookTargets;
  webhookSender: WebhookSender;
  clock: Clock;
}

/** The rules an operator may tune; each defaults to the documented value. */
export interface PetStoreOptions {
  /** When repeated requests after a rejection ban a key, and for how long. */
  ban?: BanRule;
  /** Failed authentications allowed per client address and minute. */
  failedAuthPerMinute?: number;
  /** `GET /rate_limit` queries allowed per key and minute (counted apart from the key's quota). */
  usageQueriesPerMinute?: number;
  /** How long idempotency records are kept and how long a duplicate waits for the first request (creates and changes). */
  idempotency?: IdempotencyOptions;
  /** How many days of usage per key and day are kept (90 or more; default 90). */
  keyUsageRetentionDays?: number;
  /** How long events, deliveries and attempts are kept (default 30 days; an event still owed to an endpoint stays). */
  eventRetentionMs?: number;
  /** The webhook retry schedule, timeout and batch size. */
  delivery?: DeliveryOptions;
  /** Sees each webhook delivery attempt (metrics, traces). */
  deliveryObserver?: DeliveryObserver;
}

/** Every use case of the service, wired to one set of ports, and the clock they read. */
export interface PetStore {
  clock: Clock;
  listPets: ListPets;
  createPet: CreatePet;
  createPetIdempotently: CreatePetIdempotently;
  getPet: GetPet;
  updatePet: UpdatePet;
  updatePetIdempotently: UpdatePetIdempotently;
  /** The same animal writes for the admin API: each change audited as made by `admin-api`. */
  adminPetWrites: PetWrites;
  admitRequest: AdmitRequest;
  /** Checks an admitted request's key again once its body has arrived, counting nothing. */
  confirmAdmission: ConfirmAdmission;
  /** Admits `GET /rate_limit`: counted apart from the key's quota, so it answers during a ban. */
  admitUsageQuery: AdmitUsageQuery;
  getRateLimitUsage: GetRateLimitUsage;
  /** Holds the keys' use in memory: call `flush()` periodically (at most every 60 s) and at shutdown. */
  keyUsageRecorder: KeyUsageRecorder;
  issueApiKey: IssueApiKey;
  listApiKeys: ListApiKeys;
  getApiKey: GetApiKey;
  updateApiKey: UpdateApiKey;
  rotateApiKey: RotateApiKey;
  revokeApiKey: RevokeApiKey;
  unbanApiKey: UnbanApiKey;
  getApiKeyUsage: GetApiKeyUsage;
  listAuditEvents: ListAuditEvents;
  createWebhookEndpoint: CreateWebhookEndpoint;
  listWebhookEndpoints: ListWebhookEndpoints;
  getWebhookEndpoint: GetWebhookEndpoint;
  updateWebhookEndpoint: UpdateWebhookEndpoint;
  deleteWebhookEndpoint: DeleteWebhookEndpoint;
  rotateWebhookSecret: RotateWebhookSecret;
  listWebhookDeliveries: ListWebhookDeliveries;
  resendWebhookEvent: ResendWebhookEvent;
  listEvents: ListEvents;
  /** One round of the webhook worker: run it again and again (the server's worker does). */
  deliverWebhooks: DeliverWebhooks;
  /** One batch of the purge of events, deliveries and attempts older than the retention: run it now and then. */
  purgeWebhookHistory: PurgeWebhookHistory;
}

/** Adding and changing animals: the use cases of `/v1`, or the admin API's (through an AuditedPetRepository). */
export type PetWrites = Pick<PetStore, 'createPet' | 'createPetIdempotently' | 'updatePet' | 'updatePetIdempotently'>;

/** The animal writes over `pets`. */
function petWrites(pets: PetRepository, idempotency: IdempotencyStore, clock: Clock, options: PetStoreOptions): PetWrites {
  const updatePet = new UpdatePet(pets, clock);
  return {
    createPet: new CreatePet(pets),
    createPetIdempotently: new CreatePetIdempotently(pets, idempotency, clock, options.idempotency),
    updatePet,
    updatePetIdempotently: new UpdatePetIdempotently(updatePet, idempotency, clock, options.idempotency),
  };
}

/** The history of a store given no WebhookHistory: nothing is deleted. */
const KEEPS_EVERYTHING: WebhookHistory = { purge: async () => ({ events: 0, deliveries: 0, attempts: 0 }) };

/**
 * Assembles the use cases from the ports: the one place that knows which use case needs which port. The HTTP
 * transport, the composition root and embedders all start from here. The ports are used as given: a cache or any
 * other decorator is the caller's to put in front of an adapter.
 */
export function createPetStore(ports: PetStorePorts, options: PetStoreOptions = {}): PetStore {
  const { pets, keys, rateLimits, idempotency, auditLog, keyUsage, clock } = ports;
  const { events, webhookEndpoints, deliveries, webhookHistory, webhookTargets, webhookSender } = ports;
  const webhookAudit = new WebhookAudit(auditLog);
  const enforceRateLimit = new EnforceRateLimit(rateLimits, clock, options.ban);
  const authenticateKey = new AuthenticateKey(keys, clock);
  const authenticateCaller = new AuthenticateCaller(authenticateKey, enforceRateLimit, options.failedAuthPerMinute);
  const refundRequest = new RefundRequest(rateLimits, clock);
  const keyUsageRecorder = new KeyUsageRecorder(keyUsage, clock, options.keyUsageRetentionDays);
  const views = new KeyViews(keyUsage, rateLimits, clock);
  const audit = new KeyAudit(auditLog);
  return {
    clock,
    listPets: new ListPets(pets),
    ...petWrites(pets, idempotency, clock, options),
    getPet: new GetPet(pets),
    adminPetWrites: petWrites(new AuditedPetRepository(pets, auditLog, 'admin-api', clock), idempotency, clock, options),
    admitRequest: new AdmitRequest(authenticateCaller, enforceRateLimit, refundRequest, keyUsageRecorder, clock),
    confirmAdmission: new ConfirmAdmission(authenticateKey),
    admitUsageQuery: new AdmitUsageQuery(authenticateCaller, enforceRateLimit, refundRequest, keyUsageRecorder, clock, options.usageQueriesPerMinute),
    getRateLimitUsage: new GetRateLimitUsage(keys, rateLimits, clock),
    keyUsageRecorder,
    issueApiKey: new IssueApiKey(keys, audit, clock),
    listApiKeys: new ListApiKeys(keys, views),
    getApiKey: new GetApiKey(keys, views),
    updateApiKey: new UpdateApiKey(keys, views, audit, clock),
    rotateApiKey: new RotateApiKey(keys, views, audit, clock),
    revokeApiKey: new RevokeApiKey(keys, views, audit, clock),
    unbanApiKey: new UnbanApiKey(keys, rateLimits, views, audit, clock),
    getApiKeyUsage: new GetApiKeyUsage(keys, keyUsage, clock),
    listAuditEvents: new ListAuditEvents(auditLog),
    createWebhookEndpoint: new CreateWebhookEndpoint(webhookEndpoints, webhookTargets, deliveries, webhookAudit, clock),
    listWebhookEndpoints: new ListWebhookEndpoints(webhookEndpoints),
    getWebhookEndpoint: new GetWebhookEndpoint(webhookEndpoints),
    updateWebhookEndpoint: new UpdateWebhookEndpoint(webhookEndpoints, webhookTargets, deliveries, webhookAudit, clock),
    deleteWebhookEndpoint: new DeleteWebhookEndpoint(webhookEndpoints, webhookAudit, clock),
    rotateWebhookSecret: new RotateWebhookSecret(webhookEndpoints, webhookAudit, clock),
    listWebhookDeliveries: new ListWebhookDeliveries(webhookEndpoints, deliveries),
    resendWebhookEvent: new ResendWebhookEvent(webhookEndpoints, events, deliveries, clock),
    listEvents: new ListEvents(events),
    deliverWebhooks: new DeliverWebhooks(
      { queue: deliveries, endpoints: webhookEndpoints, events, sender: webhookSender, audit: webhookAudit, clock },
      options.delivery,
      options.deliveryObserver,
    ),
    purgeWebhookHistory: new PurgeWebhookHistory(webhookHistory ?? KEEPS_EVERYTHING, clock, options.eventRetentionMs),
  };
}
