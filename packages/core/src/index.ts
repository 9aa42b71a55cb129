// Errors
export { DomainError, type AnyDomainError, type DomainErrorCode } from './errors/DomainError.js';
export { ValidationError, type FieldProblem } from './errors/ValidationError.js';
export { UnauthorizedError, type UnauthorizedReason } from './errors/UnauthorizedError.js';
export { KeyExpiredError } from './errors/KeyExpiredError.js';
export { KeyDisabledError } from './errors/KeyDisabledError.js';
export { InsufficientScopeError } from './errors/InsufficientScopeError.js';
export { NotFoundError } from './errors/NotFoundError.js';
export { RateLimitedError } from './errors/RateLimitedError.js';
export { KeyBannedError } from './errors/KeyBannedError.js';
export { ServiceUnavailableError } from './errors/ServiceUnavailableError.js';
export { IdempotencyInProgressError, IdempotencyKeyReusedError } from './errors/IdempotencyErrors.js';
export { InvalidTransitionError } from './errors/InvalidTransitionError.js';
export { PreconditionFailedError } from './errors/PreconditionFailedError.js';
export { ResendPendingError } from './errors/ResendPendingError.js';

// Pets
export { MAX_ID, type NewPet, type Pet, type PetDraft, type PetPatch } from './pet/Pet.js';
export { DEFAULT_PET_STATUS, isPetStatus, PET_STATUSES, type PetStatus } from './pet/PetStatus.js';
export {
  differentPetFields,
  PET_FIELD_NAMES,
  PET_FIELDS,
  petField,
  petFieldsOf,
  type PetFieldDeclaration,
  type PetFieldKind,
  type PetFieldName,
  type PetFieldValues,
} from './pet/petFields.js';
export {
  checkedNewPet,
  checkedPetPatch,
  parseNewPet,
  parsePetPatch,
  PET_NAME_MAX,
  type CheckedNewPet,
  type CheckedPetPatch,
} from './pet/parseNewPet.js';
export { displayedTextPattern } from './input/displayedText.js';
export type { NumberLiterals } from './input/integerLiterals.js';
export { isAllowedTransition, PET_TRANSITIONS } from './pet/PetTransitions.js';
export { LIST_LIMIT, readListPetsQuery, type ListPetsRequest } from './pet/ListPetsRequest.js';
export { parsePetId } from './pet/parsePetId.js';
export { encodePetCursor } from './pet/PetCursor.js';

// Events
export {
  eventsOfCreate,
  eventsOfUpdate,
  isPetEventType,
  payloadOf,
  petEventOf,
  PET_EVENT_TYPES,
  previousValues,
  recordedEventOf,
  type PetChangeEvent,
  type PetEvent,
  type PetEventPayload,
  type PetEventType,
  type RecordedPetEvent,
} from './events/PetEvent.js';
export { eventIdSuffix, generateEventId, isEventId } from './events/eventId.js';

// Webhooks
export {
  DISABLED_REASONS,
  isEndpointId,
  WEBHOOK_SECRET_GRACE_SECONDS,
  type DisabledReason,
  type WebhookEndpoint,
  type WebhookEndpointView,
} from './webhooks/WebhookEndpoint.js';
export {
  attemptIdOf,
  RESPONSE_BODY_MAX,
  storableText,
  type Delivery,
  type DeliveryAttempt,
  type DeliveryState,
  type LoggedAttempt,
} from './webhooks/Delivery.js';
export { DEFAULT_RETRY_DELAYS_MS } from './webhooks/RetrySchedule.js';
export { WEBHOOK_DESCRIPTION_MAX, WEBHOOK_URL_MAX } from './webhooks/parseWebhookSettings.js';
export { DEFAULT_SHARE_OPTIONS, type ShareOptions } from './webhooks/EndpointShares.js';

// Access: keys, plans, rate limits
export { KEY_STATUSES, limitsOf, statusOf, type ApiKey, type KeyStatus, type LimitOverrides } from './access/ApiKey.js';
export { API_KEY_PREFIX, apiKeyChecksum, hashApiKeySecret, isWellFormedApiKeySecret } from './access/ApiKeySecret.js';
export { isScope, SCOPES, type Scope } from './access/Scope.js';
export type { KeyView } from './access/KeyView.js';
export { KEY_NAME_MAX, parseInstant } from './access/parseKeySettings.js';
export {
  AUDIT_ACTIONS,
  isPetAuditAction,
  isWebhookAuditAction,
  KEY_AUDIT_ACTIONS,
  PET_AUDIT_ACTIONS,
  subjectIdOf,
  WEBHOOK_AUDIT_ACTIONS,
  type AuditSubject,
  type KeyAuditAction,
  type PetAuditAction,
  type WebhookAuditAction,
  AUDIT_ACTORS,
  type AuditAction,
  type AuditActor,
  type AuditChange,
  type AuditEvent,
  type AuditValue,
} from './access/AuditEvent.js';
export { isPlan, MAX_RATE_LIMIT, PLAN_LIMITS, PLANS, type Plan, type RateLimits } from './access/Plan.js';
export { DEFAULT_BAN_RULE, type BanRule } from './access/BanRule.js';
export { bindingWindow, WINDOW_SECONDS, type RateLimitState, type WindowName, type WindowState } from './access/RateLimitState.js';
export type { RateLimitUsage, WindowUsage } from './access/RateLimitUsage.js';

// Ports: every type each one declares (an adapter of the port needs them all)
export type * from './ports/Clock.js';
export type * from './ports/PetRepository.js';
export type * from './ports/EventLog.js';
export type * from './ports/WebhookEndpointStore.js';
export type * from './ports/DeliveryQueue.js';
export type * from './ports/WebhookHistory.js';
export type * from './ports/WebhookTargets.js';
export type * from './ports/WebhookSender.js';
export type * from './ports/KeyStore.js';
export { foldAsciiCase } from './access/foldAsciiCase.js';
export type * from './ports/AuditLog.js';
export type * from './ports/KeyUsageStore.js';
export type * from './ports/BanStore.js';
export type * from './ports/IdempotencyStore.js';
export type * from './ports/RateLimitStore.js';

// Adapters that need no I/O: the system clock, in-process rate limits (one instance), a key cache (composed by whoever
// assembles the service)
export { SystemClock } from './adapters/SystemClock.js';
export { InMemoryRateLimitStore, type InMemoryRateLimitOptions } from './adapters/InMemoryRateLimitStore.js';
export { openInProcessRateLimits, type InProcessRateLimitPorts } from './adapters/openInProcessRateLimits.js';
export { AuditedPetRepository } from './adapters/AuditedPetRepository.js';
export { CachingKeyStore } from './adapters/CachingKeyStore.js';

// Wiring: every use case from one set of ports
export { createPetStore, type PetWrites, type PetStore, type PetStoreOptions, type PetStorePorts } from './createPetStore.js';

// Use cases
export { ListPets, type NextPageRequest, type PetListing } from './use-cases/ListPets.js';
export { CreatePet } from './use-cases/CreatePet.js';
export { CreatePetIdempotently, type IdempotentCreateInput, type IdempotentCreateResult } from './use-cases/CreatePetIdempotently.js';
export { DEFAULT_IDEMPOTENCY, type IdempotencyOptions, type IdempotentResult } from './use-cases/IdempotentWrites.js';
export { UpdatePet, type UpdatePetInput } from './use-cases/UpdatePet.js';
export { UpdatePetIdempotently, type IdempotentUpdateInput } from './use-cases/UpdatePetIdempotently.js';
export { CreateWebhookEndpoint } from './use-cases/CreateWebhookEndpoint.js';
export { ListWebhookEndpoints } from './use-cases/ListWebhookEndpoints.js';
export { GetWebhookEndpoint } from './use-cases/GetWebhookEndpoint.js';
export { UpdateWebhookEndpoint } from './use-cases/UpdateWebhookEndpoint.js';
export { DeleteWebhookEndpoint } from './use-cases/DeleteWebhookEndpoint.js';
export { RotateWebhookSecret } from './use-cases/RotateWebhookSecret.js';
export { ListWebhookDeliveries, type DeliveryAttemptView } from './use-cases/ListWebhookDeliveries.js';
export { ResendWebhookEvent } from './use-cases/ResendWebhookEvent.js';
export { ListEvents, type EventView } from './use-cases/ListEvents.js';
export { DEFAULT_EVENT_RETENTION_MS, PURGE_BATCH_SIZE, PurgeWebhookHistory } from './use-cases/PurgeWebhookHistory.js';
export { DeliverWebhooks, type DeliveryObserver, type DeliveryOptions, type DeliveryRound } from './use-cases/DeliverWebhooks.js';
export { GetPet } from './use-cases/GetPet.js';
export { AuthenticateKey } from './use-cases/AuthenticateKey.js';
export { EnforceRateLimit, type WindowLimits } from './use-cases/EnforceRateLimit.js';
export { AuthenticateCaller, DEFAULT_FAILED_AUTH_PER_MINUTE, type CallerCredentials } from './use-cases/AuthenticateCaller.js';
export { AdmitRequest, type Admission, type AdmissionRequest } from './use-cases/AdmitRequest.js';
export { ConfirmAdmission } from './use-cases/ConfirmAdmission.js';
export { AdmitUsageQuery, DEFAULT_USAGE_QUERIES_PER_MINUTE } from './use-cases/AdmitUsageQuery.js';
export { RefundRequest } from './use-cases/RefundRequest.js';
export { GetRateLimitUsage } from './use-cases/GetRateLimitUsage.js';
export { KeyUsageRecorder, MIN_KEY_USAGE_RETENTION_DAYS } from './use-cases/KeyUsageRecorder.js';
export { IssueApiKey, type IssueApiKeyInput, type IssuedApiKey } from './use-cases/IssueApiKey.js';
export { ListApiKeys, type KeyListing } from './use-cases/ListApiKeys.js';
export { GetApiKey } from './use-cases/GetApiKey.js';
export { UpdateApiKey, type ApiKeyUpdate } from './use-cases/UpdateApiKey.js';
export { DEFAULT_GRACE_PERIOD_SECONDS, MAX_GRACE_PERIOD_SECONDS, RotateApiKey, type RotationOptions } from './use-cases/RotateApiKey.js';
export { RevokeApiKey, type Revocation } from './use-cases/RevokeApiKey.js';
export { UnbanApiKey, type Unban } from './use-cases/UnbanApiKey.js';
export { GetApiKeyUsage, MAX_USAGE_RANGE_DAYS, type KeyUsageReport, type UsageRange } from './use-cases/GetApiKeyUsage.js';
export { ListAuditEvents, type AuditEventView, type AuditListing } from './use-cases/ListAuditEvents.js';
