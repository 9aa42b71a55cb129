import { EntitySchema } from 'typeorm';
import type { Dialect } from '../dialect.js';
import { int64 } from './columns.js';

/** A row of `audit_events`: one administrative action, append-only; `changes_json` never holds a secret. `key_id` is the id of the key, webhook endpoint or animal acted on. */
export interface AuditEventRow {
  id: string;
  at_ms: number;
  actor: string;
  action: string;
  key_id: string;
  changes_json: string;
}

export const AUDIT_EVENT_ENTITY = 'PetstoreAuditEvent';

export function auditEventSchema(dialect: Dialect): EntitySchema<AuditEventRow> {
  return new EntitySchema<AuditEventRow>({
    name: AUDIT_EVENT_ENTITY,
    tableName: 'audit_events',
    columns: {
      id: { type: 'text', primary: true },
      at_ms: int64(dialect),
      actor: { type: 'text' },
      action: { type: 'text' },
      key_id: { type: 'text' },
      changes_json: { type: 'text' },
    },
    indices: [
      { name: 'idx_audit_events_at_id', columns: ['at_ms', 'id'] },
      { name: 'idx_audit_events_key_at_id', columns: ['key_id', 'at_ms', 'id'] },
    ],
  });
}
