import type { AuditActor, AuditChange, AuditSubject } from '../access/AuditEvent.js';
import { isKeyId } from '../access/KeyId.js';
import { parsePageQuery } from '../access/parsePageQuery.js';
import { encodePositionCursor } from '../access/PositionCursor.js';
import { ValidationError } from '../errors/ValidationError.js';
import type { AuditLog } from '../ports/AuditLog.js';

/** An audit event as the CLI and the admin API show it (its instant as ISO 8601 text). */
export type AuditEventView = {
  id: string;
  at: string;
  actor: AuditActor;
  changes: Readonly<Record<string, AuditChange>>;
} & AuditSubject;

export interface AuditListing {
  events: AuditEventView[];
  /** The cursor of the next (older) page; null on the last one. */
  nextCursor: string | null;
}

/** The audit trail, newest first, a page at a time (`limit`, `cursor`), of every key or of one (`keyId`). */
export class ListAuditEvents {
  constructor(private readonly log: AuditLog) {}

  async execute(input: Readonly<Record<string, unknown>> = {}): Promise<AuditListing> {
    const { keyId = null } = input;
    const listing = `audit|${typeof keyId === 'string' ? keyId : ''}`;
    const { query, problems } = parsePageQuery(input, listing, ['keyId']);
    if (keyId !== null && !Array.isArray(keyId) && !isKeyId(keyId))
      problems.push({ field: 'keyId', message: 'keyId must be a key id: key_ followed by letters and digits' });
    if (problems.length > 0) throw new ValidationError(problems);

    const found = await this.log.list({ keyId: keyId as string | null, before: query.after, limit: query.limit + 1 });
    const page = found.slice(0, query.limit);
    const last = page.at(-1);
    return {
      events: page.map((event) => ({ ...event, at: event.at.toISOString() })),
      nextCursor: found.length > query.limit && last ? encodePositionCursor(listing, last) : null,
    };
  }
}
