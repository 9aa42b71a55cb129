import type { AuditEvent } from '../access/AuditEvent.js';

/** A place in the audit order (`at`, then `id`), newest first. */
export interface AuditPosition {
  at: Date;
  id: string;
}

export interface AuditListRequest {
  /** Only this key's events; null for every key's. */
  keyId: string | null;
  /** Only events strictly older than this position (in `at`, then `id` order); null from the newest. */
  before: AuditPosition | null;
  /** At most this many events (1 or more). */
  limit: number;
}

/**
 * The append-only record of administrative actions on keys, webhook endpoints and animals. Events are never changed or deleted through this port.
 * Plain rows fit: `(id, at, actor, action, key_id, changes as JSON text)`, indexed on `(at, id)` and
 * `(key_id, at, id)`. `describeAuditLogContract` checks every adapter.
 */
export interface AuditLog {
  append(event: AuditEvent): Promise<void>;
  /** Newest first: descending `at`, then descending `id`. */
  list(request: AuditListRequest): Promise<AuditEvent[]>;
}
