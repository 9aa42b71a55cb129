import {
  AUDIT_ACTIONS,
  displayedTextPattern,
  KEY_NAME_MAX,
  AUDIT_ACTORS,
  KEY_STATUSES,
  MAX_GRACE_PERIOD_SECONDS,
  MAX_RATE_LIMIT,
  MAX_USAGE_RANGE_DAYS,
  PLANS,
  SCOPES,
} from '@petstore/core';
import { closedObject } from '../openapi/closedObject.js';
import { ErrorSchema, NewPetSchema, PetPatchSchema, PetSchema, PetsSchema, PetStatusSchema, type JsonSchema } from '../openapi/schemas.js';
import { instant, instantOrNull, pageOf } from './adminSchemaParts.js';
import { OverviewSchema } from './overviewSchema.js';
import { WEBHOOK_SCHEMAS } from './webhookSchemas.js';

// The admin document's `components.schemas`, written from core's KeyView, KeyUsageReport and AuditEventView.

const limit = { type: 'integer', minimum: 1, maximum: MAX_RATE_LIMIT } as const;
const limitOrNull = { type: ['integer', 'null'], minimum: 1, maximum: MAX_RATE_LIMIT } as const;
/** A key's per-minute and per-day limits, each as `each` says. */
const bothLimits = (description: string, each: JsonSchema) =>
  closedObject({ description, required: ['perMinute', 'perDay'], properties: { perMinute: each, perDay: each } });

const ScopesSchema = {
  type: 'array',
  description: '`pets:read` allows the `GET` operations, `pets:write` allows `POST /v1/pets`.',
  items: { type: 'string', enum: [...SCOPES] },
  minItems: 1,
  uniqueItems: true,
  example: ['pets:read'],
} as const satisfies JsonSchema;

const KEY_EXAMPLE = {
  id: 'key_3f0c9a5e1b2d4c6f',
  name: 'partner-acme',
  plan: 'pro',
  limits: { perMinute: 600, perDay: 20000 },
  limitOverrides: { perMinute: null, perDay: 20000 },
  scopes: ['pets:read'],
  status: 'active',
  expiresAt: '2027-06-30T00:00:00.000Z',
  disabled: false,
  createdAt: '2026-11-25T10:00:00.000Z',
  lastUsedAt: '2026-11-25T10:04:30.000Z',
  bannedUntil: null,
  revokedAt: null,
  previousSecretExpiresAt: null,
};

const keyProperties = {
  id: { type: 'string', description: 'Stable: rotation keeps it.' },
  name: { type: 'string', maxLength: KEY_NAME_MAX, description: 'For people; may be empty.' },
  plan: { type: 'string', enum: [...PLANS] },
  limits: bothLimits("The limits in force: the key's overrides, else its plan's.", limit),
  limitOverrides: bothLimits("The key's own limits; null where the plan's apply.", limitOrNull),
  scopes: ScopesSchema,
  status: {
    type: 'string',
    enum: [...KEY_STATUSES],
    description: 'What a request with the current secret gets now: revoked first, then expired, then disabled.',
  },
  expiresAt: instantOrNull('After it, the key gets 401 `key_expired`; null: no expiry.'),
  disabled: { type: 'boolean', description: 'A disabled key gets 401 `key_disabled` until enabled again.' },
  createdAt: instant('When the key was created.'),
  lastUsedAt: instantOrNull('Its last request (admitted or refused), at most a minute behind; null: never used.'),
  bannedUntil: instantOrNull('The end of a rate-limit ban in force; null: none.'),
  revokedAt: instantOrNull('When the key was revoked (for good); null: not revoked.'),
  previousSecretExpiresAt: instantOrNull('When the secret replaced by the last rotation stops (or stopped) working; null: never rotated.'),
} as const;

export const ApiKeySchema = closedObject({
  description: 'An API key, never its secret.',
  required: Object.keys(keyProperties),
  properties: keyProperties,
  example: KEY_EXAMPLE,
});

export const IssuedApiKeySchema = closedObject({
  description: 'A key and its secret: the only answer that shows the secret. Store it now; only its hash is kept.',
  required: [...Object.keys(keyProperties), 'key'],
  properties: {
    ...keyProperties,
    key: {
      type: 'string',
      pattern: '^pst_[0-9A-Za-z]{36}$',
      description: 'The secret: `pst_`, 30 random base62 characters, a 6-character checksum.',
    },
  },
  example: { ...KEY_EXAMPLE, key: 'pst_NzrtDIVrgafSZAe5mXHC16bmB0RTAj115vIp' },
});

const settingProperties = {
  name: {
    type: 'string',
    maxLength: KEY_NAME_MAX,
    pattern: displayedTextPattern({ visible: false }),
    description: `For people: at most ${KEY_NAME_MAX} characters (Unicode code points), may be empty; no control characters, bidirectional controls or line separators, as pet names.`,
  },
  plan: { type: 'string', enum: [...PLANS] },
  perMinute: { ...limitOrNull, description: "A per-minute limit for this key; null: the plan's. Required on `enterprise`." },
  perDay: { ...limitOrNull, description: "A per-day limit for this key; null: the plan's. Required on `enterprise`." },
  scopes: ScopesSchema,
  expiresAt: instantOrNull('In the future, with its offset (`2027-01-01T00:00:00Z`); null: no expiry.'),
} as const;

export const NewApiKeySchema = closedObject({
  description: 'A key to create: `plan` is required; a new key has every scope unless `scopes` says otherwise.',
  required: ['plan'],
  properties: settingProperties,
  example: { name: 'partner-acme', plan: 'pro', scopes: ['pets:read'], perDay: 20000, expiresAt: '2027-06-30T00:00:00Z' },
});

export const ApiKeyUpdateSchema = closedObject({
  description: 'The settings to change (at least one); the rules of a new key apply to the result. A revoked key cannot be changed.',
  minProperties: 1,
  properties: { ...settingProperties, disabled: { type: 'boolean', description: 'true: the key gets 401 `key_disabled` until set back to false.' } },
  example: { plan: 'business', disabled: false },
});

export const RotationSchema = closedObject({
  description: 'How long the replaced secret keeps working; an empty body takes the default.',
  properties: {
    gracePeriodSeconds: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_GRACE_PERIOD_SECONDS,
      description: 'Seconds, 0 (the old secret stops at once) to 30 days; default 24 hours.',
    },
  },
  example: { gracePeriodSeconds: 3600 },
});

export const ApiKeysSchema = pageOf('keys', ApiKeySchema, 'One page of keys, oldest first, revoked ones included.', 'next');

const DAY = { type: 'string', format: 'date', description: 'A UTC day.' } as const;

export const KeyUsageSchema = closedObject({
  description:
    "A key's requests per UTC day (kept at least 90 days), as every instance flushed them: those admitted, and those its rate limit refused.",
  required: ['keyId', 'from', 'to', 'days', 'lastUsedAt'],
  properties: {
    keyId: { type: 'string' },
    from: DAY,
    to: DAY,
    days: {
      type: 'array',
      description: 'Every day of the range, oldest first; 0s for a day without requests.',
      maxItems: MAX_USAGE_RANGE_DAYS,
      items: closedObject({
        required: ['day', 'requests', 'limited'],
        properties: {
          day: DAY,
          requests: { type: 'integer', minimum: 0, description: "Admitted: counted against the key's quota." },
          limited: {
            type: 'integer',
            minimum: 0,
            description: 'Refused by its rate limit (`429`): over its per-minute or per-day limit, or during a ban.',
          },
        },
      }),
    },
    lastUsedAt: instantOrNull('Its last request (admitted or refused), at most a minute behind.'),
  },
  example: {
    keyId: 'key_3f0c9a5e1b2d4c6f',
    from: '2026-11-24',
    to: '2026-11-25',
    days: [
      { day: '2026-11-24', requests: 1000, limited: 212 },
      { day: '2026-11-25', requests: 37, limited: 0 },
    ],
    lastUsedAt: '2026-11-25T10:04:30.000Z',
  },
});

const auditValue = { type: ['string', 'number', 'boolean', 'null', 'array'], items: { type: 'string' } } as const;

const AuditEventSchema = closedObject({
  description:
    'One administrative action on one key (`keyId`), one webhook endpoint (`endpointId`) or one animal (`petId`: ' +
    'added or changed through the admin API). Never a secret.',
  required: ['id', 'at', 'actor', 'action', 'changes'],
  properties: {
    id: { type: 'string' },
    at: instant('When it happened.'),
    actor: {
      type: 'string',
      enum: [...AUDIT_ACTORS],
      description: '`cli`, `admin-api`, or `system` (the first-run key; an endpoint disabled by its deliveries).',
    },
    action: { type: 'string', enum: [...AUDIT_ACTIONS] },
    keyId: { type: 'string', description: 'The key acted on (`key.*` actions).' },
    endpointId: { type: 'string', description: 'The webhook endpoint acted on (`webhook.*` actions).' },
    petId: { type: 'integer', format: 'int64', minimum: 1, description: 'The animal acted on (`pet.*` actions).' },
    changes: {
      type: 'object',
      description: 'Each changed field, before and after; empty when nothing changed.',
      additionalProperties: closedObject({ required: ['before', 'after'], properties: { before: auditValue, after: auditValue } }),
    },
  },
  example: {
    id: 'evt_019ab3c4d5e60001a1b2c3d4e5f6',
    at: '2026-11-25T10:00:00.000Z',
    actor: 'admin-api',
    action: 'key.updated',
    keyId: 'key_3f0c9a5e1b2d4c6f',
    changes: { plan: { before: 'free', after: 'pro' } },
  },
});

export const AuditEventsSchema = pageOf('events', AuditEventSchema, 'One page of the audit trail, newest first.', 'next (older)');

/** Every schema of the admin document's `components.schemas`, by name. */
export const ADMIN_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ApiKey: ApiKeySchema,
  IssuedApiKey: IssuedApiKeySchema,
  NewApiKey: NewApiKeySchema,
  ApiKeyUpdate: ApiKeyUpdateSchema,
  Rotation: RotationSchema,
  ApiKeys: ApiKeysSchema,
  KeyUsage: KeyUsageSchema,
  AuditEvent: AuditEventSchema,
  AuditEvents: AuditEventsSchema,
  ...WEBHOOK_SCHEMAS,
  PetStatus: PetStatusSchema,
  Pet: PetSchema,
  NewPet: NewPetSchema,
  PetPatch: PetPatchSchema,
  Pets: PetsSchema,
  Overview: OverviewSchema,
  Error: ErrorSchema,
};
