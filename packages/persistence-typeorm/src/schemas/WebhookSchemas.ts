import { EntitySchema } from 'typeorm';
import type { Dialect } from '../dialect.js';
import { int64 } from './columns.js';

/** A row of `webhook_endpoints`; `event_types` is comma-separated. The secrets are kept to sign with. */
export interface WebhookEndpointRow {
  id: string;
  url: string;
  event_types: string;
  description: string;
  disabled: boolean;
  disabled_reason: string | null;
  created_at_ms: number;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at_ms: number | null;
  /** Compared by every change (a compare-and-set), one more after it. */
  version: number;
}

/** A row of `webhook_deliveries`: one event to one endpoint; `due_at_ms` is when it may next be attempted (or its claim ends). */
export interface WebhookDeliveryRow {
  id: number;
  event_id: string;
  endpoint_id: string;
  state: string;
  attempts: number;
  due_at_ms: number;
  /** Queued by a resend (`enqueue`), not by `dispatch`: one of an event to an endpoint is pending at a time. */
  replay: boolean;
}

/** A row of `webhook_attempts`: the delivery log. */
export interface WebhookAttemptRow {
  id: string;
  delivery_id: number;
  event_id: string;
  endpoint_id: string;
  attempt: number;
  at_ms: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string | null;
  succeeded: boolean;
  /** The retry this attempt scheduled; null when it scheduled none. */
  next_attempt_at_ms: number | null;
}

/** The one row of `webhook_dispatch_head`: the number of the last event dispatched (webhookDispatch.ts). */
export interface WebhookDispatchHeadRow {
  id: number;
  seq: number;
}

/** A row of `webhook_endpoint_holds`: a failing endpoint held out of the dispatch, at its place (`position`). */
export interface WebhookEndpointHoldRow {
  endpoint_id: string;
  position: number;
  failing: boolean;
  due_at_ms: number;
}

export const WEBHOOK_ENDPOINT_ENTITY = 'PetstoreWebhookEndpoint';
export const WEBHOOK_DELIVERY_ENTITY = 'PetstoreWebhookDelivery';
export const WEBHOOK_ATTEMPT_ENTITY = 'PetstoreWebhookAttempt';
const WEBHOOK_DISPATCH_HEAD_ENTITY = 'PetstoreWebhookDispatchHead';
const WEBHOOK_ENDPOINT_HOLD_ENTITY = 'PetstoreWebhookEndpointHold';

export function webhookEndpointSchema(dialect: Dialect): EntitySchema<WebhookEndpointRow> {
  return new EntitySchema<WebhookEndpointRow>({
    name: WEBHOOK_ENDPOINT_ENTITY,
    tableName: 'webhook_endpoints',
    columns: {
      id: { type: 'text', primary: true },
      url: { type: 'text' },
      event_types: { type: 'text' },
      description: { type: 'text' },
      disabled: { type: 'boolean', default: false },
      disabled_reason: { type: 'text', nullable: true },
      created_at_ms: int64(dialect),
      secret: { type: 'text' },
      previous_secret: { type: 'text', nullable: true },
      previous_secret_expires_at_ms: int64(dialect, { nullable: true }),
      version: { type: 'integer', default: 1 },
    },
    indices: [{ name: 'idx_webhook_endpoints_created', columns: ['created_at_ms', 'id'] }],
  });
}

export function webhookDeliverySchema(dialect: Dialect): EntitySchema<WebhookDeliveryRow> {
  return new EntitySchema<WebhookDeliveryRow>({
    name: WEBHOOK_DELIVERY_ENTITY,
    tableName: 'webhook_deliveries',
    columns: {
      id: int64(dialect, { primary: true, generated: 'increment' }),
      event_id: { type: 'text' },
      endpoint_id: { type: 'text' },
      state: { type: 'text' },
      attempts: { type: 'integer' },
      due_at_ms: int64(dialect),
      replay: { type: 'boolean', default: false },
    },
    indices: [
      { name: 'idx_webhook_deliveries_due', columns: ['state', 'due_at_ms'] },
      { name: 'idx_webhook_deliveries_endpoint_due', columns: ['endpoint_id', 'state', 'due_at_ms', 'id'] },
    ],
  });
}

export function webhookAttemptSchema(dialect: Dialect): EntitySchema<WebhookAttemptRow> {
  return new EntitySchema<WebhookAttemptRow>({
    name: WEBHOOK_ATTEMPT_ENTITY,
    tableName: 'webhook_attempts',
    columns: {
      id: { type: 'text', primary: true },
      delivery_id: int64(dialect),
      event_id: { type: 'text' },
      endpoint_id: { type: 'text' },
      attempt: { type: 'integer' },
      at_ms: int64(dialect),
      status_code: { type: 'integer', nullable: true },
      duration_ms: { type: 'integer' },
      error: { type: 'text', nullable: true },
      response_body: { type: 'text', nullable: true },
      succeeded: { type: 'boolean' },
      next_attempt_at_ms: int64(dialect, { nullable: true }),
    },
    indices: [
      { name: 'idx_webhook_attempts_endpoint', columns: ['endpoint_id', 'at_ms', 'id'] },
      { name: 'idx_webhook_attempts_at', columns: ['at_ms'] },
    ],
  });
}

export function webhookDispatchHeadSchema(dialect: Dialect): EntitySchema<WebhookDispatchHeadRow> {
  return new EntitySchema<WebhookDispatchHeadRow>({
    name: WEBHOOK_DISPATCH_HEAD_ENTITY,
    tableName: 'webhook_dispatch_head',
    columns: { id: { type: 'integer', primary: true }, seq: int64(dialect) },
  });
}

export function webhookEndpointHoldSchema(dialect: Dialect): EntitySchema<WebhookEndpointHoldRow> {
  return new EntitySchema<WebhookEndpointHoldRow>({
    name: WEBHOOK_ENDPOINT_HOLD_ENTITY,
    tableName: 'webhook_endpoint_holds',
    columns: {
      endpoint_id: { type: 'text', primary: true },
      position: int64(dialect),
      failing: { type: 'boolean' },
      due_at_ms: int64(dialect),
    },
    indices: [{ name: 'idx_webhook_endpoint_holds_due', columns: ['due_at_ms'] }],
  });
}
