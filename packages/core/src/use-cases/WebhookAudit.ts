import { changesBetween, type AuditActor, type WebhookAuditAction } from '../access/AuditEvent.js';
import { generateEventId } from '../events/eventId.js';
import type { AuditLog } from '../ports/AuditLog.js';
import { auditedEndpointFields, type WebhookEndpoint } from '../webhooks/WebhookEndpoint.js';

/** Appends the audit event of an action on a webhook endpoint: the fields it changed, never a secret. */
export class WebhookAudit {
  constructor(private readonly log: AuditLog) {}

  record(at: Date, actor: AuditActor, action: WebhookAuditAction, before: WebhookEndpoint | null, after: WebhookEndpoint): Promise<void> {
    const changes = changesBetween(before ? auditedEndpointFields(before) : {}, auditedEndpointFields(after));
    return this.log.append({ id: generateEventId(at), at, actor, action, endpointId: after.id, changes });
  }
}
