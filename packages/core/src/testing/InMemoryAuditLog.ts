import type { AuditEvent } from '../access/AuditEvent.js';
import type { AuditListRequest, AuditLog, AuditPosition } from '../ports/AuditLog.js';

const copy = (event: AuditEvent): AuditEvent => structuredClone(event);

/** Newest first. */
const auditOrder = (a: AuditPosition, b: AuditPosition) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export class InMemoryAuditLog implements AuditLog {
  private readonly events: AuditEvent[] = [];

  append(event: AuditEvent): Promise<void> {
    if (this.events.some((e) => e.id === event.id)) return Promise.reject(new Error(`duplicate audit event id ${event.id}`));
    this.events.push(copy(event));
    return Promise.resolve();
  }

  list({ keyId, before, limit }: AuditListRequest): Promise<AuditEvent[]> {
    const events = this.events.filter(
      (e) => (keyId === null || ('keyId' in e && e.keyId === keyId)) && (before === null || auditOrder(e, before) > 0),
    );
    return Promise.resolve(events.sort(auditOrder).slice(0, limit).map(copy));
  }
}
