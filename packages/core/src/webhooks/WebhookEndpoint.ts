import { randomBytes } from 'node:crypto';
import type { AuditValue } from '../access/AuditEvent.js';
import type { PetEventType } from '../events/PetEvent.js';

/** Why an endpoint is disabled: by an operator, by its receiver answering `410 Gone`, or after failing for the whole retry schedule. */
export const DISABLED_REASONS = ['manual', 'gone', 'failing'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** How long a secret replaced by a rotation keeps signing beside the new one: 24 hours. */
export const WEBHOOK_SECRET_GRACE_SECONDS = 86_400;

/** A receiver of webhooks, with the secrets that sign what it is sent. */
export interface WebhookEndpoint {
  /** `we_` and 16 hex digits. */
  id: string;
  url: string;
  /** The event types it receives (at least one). */
  eventTypes: PetEventType[];
  description: string;
  disabled: boolean;
  /** Null while enabled. */
  disabledReason: DisabledReason | null;
  createdAt: Date;
  /** `whsec_` and the base64 of 24 random bytes (the Standard Webhooks format). */
  secret: string;
  /** The secret the last rotation replaced: it signs too until `previousSecretExpiresAt`. */
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  /** 1 when created, one more with each change: what a change is compared against (WebhookEndpointStore.save). */
  version: number;
}

/** An endpoint as the admin API and the CLI show it (instants as ISO 8601 text): never a secret. */
export interface WebhookEndpointView extends Pick<WebhookEndpoint, 'id' | 'url' | 'eventTypes' | 'description' | 'disabled' | 'disabledReason'> {
  createdAt: string;
  previousSecretExpiresAt: string | null;
}

export function viewOfEndpoint(endpoint: WebhookEndpoint): WebhookEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    eventTypes: [...endpoint.eventTypes],
    description: endpoint.description,
    disabled: endpoint.disabled,
    disabledReason: endpoint.disabledReason,
    createdAt: endpoint.createdAt.toISOString(),
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
  };
}

/** An endpoint's fields as the audit trail records them: never a secret. */
export function auditedEndpointFields(endpoint: WebhookEndpoint): Record<string, AuditValue> {
  const { url, eventTypes, description, disabled, disabledReason, previousSecretExpiresAt } = viewOfEndpoint(endpoint);
  return { url, eventTypes, description, disabled, disabledReason, previousSecretExpiresAt };
}

export function generateEndpointId(): string {
  return `we_${randomBytes(8).toString('hex')}`;
}

export function isEndpointId(value: unknown): value is string {
  return typeof value === 'string' && /^we_[0-9a-f]{16}$/.test(value);
}

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The secrets that sign a delivery made at `now`: the current one, and the replaced one during its grace period. */
export function signingSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
  const previousSigns = endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > now;
  return previousSigns ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}
