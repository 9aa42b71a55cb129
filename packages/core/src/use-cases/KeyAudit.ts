import { generateEventId } from '../events/eventId.js';
import type { ApiKey } from '../access/ApiKey.js';
import { auditedFieldsOf, changesBetween, type KeyAuditAction as AuditAction, type AuditActor, type AuditChange } from '../access/AuditEvent.js';
import type { AuditLog } from '../ports/AuditLog.js';

/** Appends the audit event of an administrative action on a key: the fields it changed, never a secret. */
export class KeyAudit {
  constructor(private readonly log: AuditLog) {}

  /** The changes between two states of the key (`before` null for a new key), plus any `extra` ones. */
  record(
    at: Date,
    actor: AuditActor,
    action: AuditAction,
    before: ApiKey | null,
    after: ApiKey,
    extra: Readonly<Record<string, AuditChange>> = {},
  ): Promise<void> {
    const changes = { ...changesBetween(before ? auditedFieldsOf(before) : {}, auditedFieldsOf(after)), ...extra };
    return this.log.append({ id: generateEventId(at), at, actor, action, keyId: after.id, changes });
  }
}
