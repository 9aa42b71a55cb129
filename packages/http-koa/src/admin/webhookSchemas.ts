import { DISABLED_REASONS, displayedTextPattern, PET_EVENT_TYPES, RESPONSE_BODY_MAX, WEBHOOK_DESCRIPTION_MAX, WEBHOOK_URL_MAX } from '@petstore/core';
import { closedObject } from '../openapi/closedObject.js';
import { PetSchema, type JsonSchema } from '../openapi/schemas.js';
import { instant, instantOrNull, pageOf } from './adminSchemaParts.js';

// The admin document's schemas of webhook endpoints, their delivery log and the events, written from core's
// WebhookEndpointView, DeliveryAttemptView and EventView.

const EventTypesSchema = {
  type: 'array',
  description: 'The event types the endpoint receives.',
  items: { type: 'string', enum: [...PET_EVENT_TYPES] },
  minItems: 1,
  uniqueItems: true,
  example: ['pet.created', 'pet.updated'],
} as const satisfies JsonSchema;

const url = {
  type: 'string',
  format: 'uri',
  maxLength: WEBHOOK_URL_MAX,
  description:
    'Where events are POSTed: `https`, and a host that resolves to public addresses only (checked when set and at each delivery), unless the server runs with `WEBHOOK_ALLOW_PRIVATE_TARGETS=true`.',
} as const;

const description = {
  type: 'string',
  maxLength: WEBHOOK_DESCRIPTION_MAX,
  pattern: displayedTextPattern({ visible: false }),
  description: `For people: at most ${WEBHOOK_DESCRIPTION_MAX} characters (Unicode code points), may be empty; no control characters, bidirectional controls or line separators.`,
} as const;

const ENDPOINT_EXAMPLE = {
  id: 'we_5c2a9e0b7d1f4a36',
  url: 'https://crm.example.org/hooks/petstore',
  eventTypes: ['pet.created', 'pet.updated'],
  description: 'CRM',
  disabled: false,
  disabledReason: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  previousSecretExpiresAt: null,
};

const endpointProperties = {
  id: { type: 'string' },
  url,
  eventTypes: EventTypesSchema,
  description,
  disabled: { type: 'boolean', description: 'A disabled endpoint is sent nothing until enabled again.' },
  disabledReason: {
    type: ['string', 'null'],
    enum: [...DISABLED_REASONS, null],
    description:
      '`manual` (an operator), `gone` (its receiver answered `410`), `failing` (every attempt of a delivery failed for the whole retry schedule); null while enabled.',
  },
  createdAt: instant('When the endpoint was created.'),
  previousSecretExpiresAt: instantOrNull('Until when the secret replaced by the last rotation still signs beside the new one; null: never rotated.'),
} as const;

export const WebhookEndpointSchema = closedObject({
  description: 'A webhook endpoint, never its secret.',
  required: Object.keys(endpointProperties),
  properties: endpointProperties,
  example: ENDPOINT_EXAMPLE,
});

export const IssuedWebhookEndpointSchema = closedObject({
  description: 'An endpoint and its signing secret: the only answer that shows the secret.',
  required: [...Object.keys(endpointProperties), 'secret'],
  properties: {
    ...endpointProperties,
    secret: {
      type: 'string',
      pattern: '^whsec_[A-Za-z0-9+/]{32}$',
      description: 'The Standard Webhooks signing secret: `whsec_` and the base64 of 24 random bytes. Verify signatures with it.',
    },
  },
  example: { ...ENDPOINT_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
});

export const NewWebhookEndpointSchema = closedObject({
  description: 'An endpoint to create: `url` is required; it receives every event type unless `eventTypes` says otherwise.',
  required: ['url'],
  properties: { url, eventTypes: EventTypesSchema, description },
  example: { url: 'https://crm.example.org/hooks/petstore', eventTypes: ['pet.created'], description: 'CRM' },
});

export const WebhookEndpointUpdateSchema = closedObject({
  description: 'The settings to change (at least one).',
  minProperties: 1,
  properties: {
    url,
    eventTypes: EventTypesSchema,
    description,
    disabled: { type: 'boolean', description: 'true: send it nothing; false: enable it again (also after `gone` or `failing`).' },
  },
  example: { disabled: false },
});

export const WebhookEndpointsSchema = pageOf('endpoints', WebhookEndpointSchema, 'One page of webhook endpoints, oldest first.', 'next');

const ATTEMPT_EXAMPLE = {
  deliveryId: 42,
  eventId: 'evt_019ab3c4d5e60001a1b2c3d4e5f6',
  endpointId: 'we_5c2a9e0b7d1f4a36',
  attempt: 2,
  at: '2026-11-25T10:00:05.120Z',
  statusCode: 503,
  durationMs: 84,
  error: 'the receiver answered 503',
  responseBody: 'upstream unavailable',
  succeeded: false,
  nextAttemptAt: '2026-11-25T10:05:05.120Z',
};

const DeliveryAttemptSchema = closedObject({
  description: 'One attempt to deliver one event to the endpoint.',
  required: Object.keys(ATTEMPT_EXAMPLE),
  properties: {
    deliveryId: { type: 'integer', minimum: 1, description: 'The delivery (one event to one endpoint; a resend is another).' },
    eventId: { type: 'string', description: 'The event, also sent as `webhook-id`.' },
    endpointId: { type: 'string' },
    attempt: { type: 'integer', minimum: 1, description: '1 for the first try of the delivery.' },
    at: instant('When the request was sent.'),
    statusCode: { type: ['integer', 'null'], description: "The receiver's status; null when it did not answer." },
    durationMs: { type: 'integer', minimum: 0 },
    error: { type: ['string', 'null'], description: 'Why it failed; null on success.' },
    responseBody: {
      type: ['string', 'null'],
      maxLength: RESPONSE_BODY_MAX,
      description: `The start of the answer (at most ${RESPONSE_BODY_MAX} characters).`,
    },
    succeeded: { type: 'boolean', description: 'A 2xx answer.' },
    nextAttemptAt: instantOrNull(
      'When the delivery is tried next: the retry this attempt scheduled, shown while the delivery waits for it. Null ' +
        'when this attempt scheduled none (it succeeded, or was the last the retry schedule allows), and once the ' +
        'delivery was tried again or dropped (its endpoint disabled or deleted).',
    ),
  },
  example: ATTEMPT_EXAMPLE,
});

export const DeliveryAttemptsSchema = pageOf('attempts', DeliveryAttemptSchema, "One page of the endpoint's delivery log, newest first.", 'next');

const EVENT_EXAMPLE = {
  id: 'evt_019ab3c4d5e20001f0e1d2c3b4a5',
  type: 'pet.created',
  timestamp: '2026-11-25T09:00:00.000Z',
  data: { id: 1, name: 'Rex', categoryId: 2, status: 'available', version: 1 },
};

/** The fields an update can change, as answers show them: `previous` holds their values before it. */
const PREVIOUS_FIELDS = Object.fromEntries(Object.entries(PetSchema.properties).filter(([name]) => name !== 'id'));

const EventSchema = closedObject({
  description: 'A change to an animal, with the payload its webhooks carry (`type`, `timestamp`, `data`).',
  required: ['id', 'type', 'timestamp', 'data'],
  properties: {
    id: { type: 'string', description: '`evt_...`: the `webhook-id` of its deliveries.' },
    type: { type: 'string', enum: [...PET_EVENT_TYPES] },
    timestamp: instant('When the change was made.'),
    data: closedObject({
      description:
        'The animal as the change left it, with its `version` (1 when created, one more with each change); for `pet.updated`, `previous` holds the values before it of the fields it changed.',
      required: ['id', 'name', 'categoryId', 'status', 'version'],
      properties: {
        ...PetSchema.properties,
        version: { type: 'integer', minimum: 1 },
        previous: closedObject({
          properties: PREVIOUS_FIELDS,
          example: { status: 'pending' },
        }),
      },
    }),
  },
  example: EVENT_EXAMPLE,
});

export const EventsSchema = pageOf('events', EventSchema, 'One page of events, newest first.', 'next');

export const ResendSchema = closedObject({
  description: 'The event to send to the endpoint again.',
  required: ['eventId'],
  properties: { eventId: { type: 'string', description: 'An event id (`evt_...`) from listEvents or the delivery log.' } },
  example: { eventId: 'evt_019ab3c4d5e60001a1b2c3d4e5f6' },
});

export const ResendAcceptedSchema = closedObject({
  description: 'The new delivery, attempted at once by the worker.',
  required: ['deliveryId', 'eventId', 'endpointId'],
  properties: { deliveryId: { type: 'integer', minimum: 1 }, eventId: { type: 'string' }, endpointId: { type: 'string' } },
  example: { deliveryId: 43, eventId: 'evt_019ab3c4d5e60001a1b2c3d4e5f6', endpointId: 'we_5c2a9e0b7d1f4a36' },
});

/** The webhook schemas of the admin document's `components.schemas`, by name. */
export const WEBHOOK_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  WebhookEndpoint: WebhookEndpointSchema,
  IssuedWebhookEndpoint: IssuedWebhookEndpointSchema,
  NewWebhookEndpoint: NewWebhookEndpointSchema,
  WebhookEndpointUpdate: WebhookEndpointUpdateSchema,
  WebhookEndpoints: WebhookEndpointsSchema,
  DeliveryAttempt: DeliveryAttemptSchema,
  DeliveryAttempts: DeliveryAttemptsSchema,
  Event: EventSchema,
  Events: EventsSchema,
  Resend: ResendSchema,
  ResendAccepted: ResendAcceptedSchema,
};
