import {
  isPetAuditAction,
  isWebhookAuditAction,
  subjectIdOf,
  type AuditActor,
  type AuditEvent,
  type AuditListRequest,
  type AuditLog,
  type KeyAuditAction,
} from '@petstore/core';
import { LessThan, type DataSource, type FindOptionsWhere, type Repository } from 'typeorm';
import { AUDIT_EVENT_ENTITY, type AuditEventRow } from './schemas/AuditEventSchema.js';
import { translateDatabaseError } from './translateDatabaseError.js';

function toAuditEvent(row: AuditEventRow): AuditEvent {
  const common = {
    id: row.id,
    at: new Date(row.at_ms),
    actor: row.actor as AuditActor,
    changes: JSON.parse(row.changes_json) as AuditEvent['changes'],
  };
  // `key_id` holds the id of what the action was on: a key (`key_...`), a webhook endpoint (`we_...`) or an animal.
  if (isWebhookAuditAction(row.action)) return { ...common, action: row.action, endpointId: row.key_id };
  if (isPetAuditAction(row.action)) return { ...common, action: row.action, petId: Number(row.key_id) };
  return { ...common, action: row.action as KeyAuditAction, keyId: row.key_id };
}

/** AuditLog in the `audit_events` table: inserts only; pages are index range scans on (at, id) or (key, at, id). */
export class TypeOrmAuditLog implements AuditLog {
  private readonly rows: Repository<AuditEventRow>;

  constructor(dataSource: DataSource) {
    this.rows = dataSource.getRepository<AuditEventRow>(AUDIT_EVENT_ENTITY);
  }

  async append(event: AuditEvent): Promise<void> {
    try {
      await this.rows.insert({
        id: event.id,
        at_ms: event.at.getTime(),
        actor: event.actor,
        action: event.action,
        key_id: subjectIdOf(event),
        changes_json: JSON.stringify(event.changes),
      });
    } catch (error) {
      translateDatabaseError(error);
    }
  }

  async list({ keyId, before, limit }: AuditListRequest): Promise<AuditEvent[]> {
    const ofKey: FindOptionsWhere<AuditEventRow> = keyId === null ? {} : { key_id: keyId };
    const where = before
      ? [
          { ...ofKey, at_ms: LessThan(before.at.getTime()) },
          { ...ofKey, at_ms: before.at.getTime(), id: LessThan(before.id) },
        ]
      : ofKey;
    try {
      return (await this.rows.find({ where, order: { at_ms: 'DESC', id: 'DESC' }, take: limit })).map(toAuditEvent);
    } catch (error) {
      translateDatabaseError(error);
    }
  }
}
