import type { PetDraft } from '../pet/Pet.js';
import { PET_FIELD_NAMES } from '../pet/petFields.js';
import type { ApiKey } from './ApiKey.js';

/** Who made a change: the `petstore keys` CLI, the admin HTTP API, or the service itself (the first-run key). */
export const AUDIT_ACTORS = ['cli', 'admin-api', 'system'] as const;
export type AuditActor = (typeof AUDIT_ACTORS)[number];

export const KEY_AUDIT_ACTIONS = ['key.created', 'key.updated', 'key.rotated', 'key.revoked', 'key.unbanned'] as const;
export type KeyAuditAction = (typeof KEY_AUDIT_ACTIONS)[number];
export const WEBHOOK_AUDIT_ACTIONS = ['webhook.created', 'webhook.updated', 'webhook.secret_rotated', 'webhook.deleted', 'webhook.disabled'] as const;
export type WebhookAuditAction = (typeof WEBHOOK_AUDIT_ACTIONS)[number];
/** An animal added, or changed (its status moved, its name or category changed), through the admin API. */
export const PET_AUDIT_ACTIONS = ['pet.created', 'pet.updated'] as const;
export type PetAuditAction = (typeof PET_AUDIT_ACTIONS)[number];
export const AUDIT_ACTIONS = [...KEY_AUDIT_ACTIONS, ...WEBHOOK_AUDIT_ACTIONS, ...PET_AUDIT_ACTIONS] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isWebhookAuditAction(action: string): action is WebhookAuditAction {
  return (WEBHOOK_AUDIT_ACTIONS as readonly string[]).includes(action);
}

export function isPetAuditAction(action: string): action is PetAuditAction {
  return (PET_AUDIT_ACTIONS as readonly string[]).includes(action);
}

/** A field's value as recorded: instants as ISO 8601 text, never a secret or a secret's hash. */
export type AuditValue = string | number | boolean | null | readonly string[];

export interface AuditChange {
  before: AuditValue;
  after: AuditValue;
}

interface AuditEventCommon {
  /** `evt_` and 28 hex digits; in the order of `at`, then of appending within one process. */
  id: string;
  at: Date;
  actor: AuditActor;
  /** The fields the action changed, by name; empty when it changed nothing (revoking a revoked key). */
  changes: Readonly<Record<string, AuditChange>>;
}

/** What an audited action was on: a key, a webhook endpoint or an animal. */
export type AuditSubject =
  { action: KeyAuditAction; keyId: string } | { action: WebhookAuditAction; endpointId: string } | { action: PetAuditAction; petId: number };

/** One administrative action on one key, one webhook endpoint or one animal, as appended to the AuditLog. */
export type AuditEvent = AuditEventCommon & AuditSubject;

/** The id of what the action was on, as text (`key_...`, `we_...`, or an animal's id). */
export function subjectIdOf(subject: AuditSubject): string {
  return 'keyId' in subject ? subject.keyId : 'endpointId' in subject ? subject.endpointId : String(subject.petId);
}

const sameValue = (a: AuditValue, b: AuditValue): boolean =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((v, i) => v === b[i]) : a === b;

/** The fields whose values differ between `before` and `after` (a field missing on one side is null there). */
export function changesBetween(
  before: Readonly<Record<string, AuditValue>>,
  after: Readonly<Record<string, AuditValue>>,
): Record<string, AuditChange> {
  const changes: Record<string, AuditChange> = {};
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[field] ?? null;
    const is = after[field] ?? null;
    if (!sameValue(was, is)) changes[field] = { before: was, after: is };
  }
  return changes;
}

const iso = (instant: Date | null) => instant?.toISOString() ?? null;

/** An animal's fields as the audit trail records them. */
export function auditedPetFields(fields: PetDraft): Record<string, AuditValue> {
  const audited: Record<string, AuditValue> = {};
  for (const name of PET_FIELD_NAMES) audited[name] = fields[name] ?? null;
  return audited;
}

/** A key's settings and state as the audit trail records them (the override fields under their input names). */
export function auditedFieldsOf(key: ApiKey): Record<string, AuditValue> {
  return {
    name: key.name,
    plan: key.plan,
    perMinute: key.limitOverrides.perMinute,
    perDay: key.limitOverrides.perDay,
    scopes: [...key.scopes],
    expiresAt: iso(key.expiresAt),
    disabled: key.disabled,
    revokedAt: iso(key.revokedAt),
    previousSecretExpiresAt: iso(key.previousSecretExpiresAt),
  };
}
