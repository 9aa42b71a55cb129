import type { AuditActor, AuditChange, AuditSubject } from '../access/AuditEvent.js';
import { isKeyId } from '../access/KeyId.js';
import { parsePageQuery } from '../access/parsePageQuery.js';
import { encodePositionCursor, type Position } from '../access/PositionCursor.js';
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

/** A cursor continues the listing it came from: the key it is filtered on is part of it. */
const listingOf = (keyId: string | undefined) => `audit|${keyId ?? ''}`;

/** The audit trail, newest first, a page at a time (`limit`, `cursor`), of every key or of one (`keyId`). */
export class ListAuditEvents {
  constructor(private readonly log: AuditLog) {}

  /** The cursor of the page after the audit event at `position`, in the trail of one key (`keyId`) or of all. */
  static cursorAt(position: Position, keyId?: string): string {
    return encodePositionCursor(listingOf(keyId), position);
  }

  async execute(input: Readonly<Record<string, unknown>> = {}): Promise<AuditListing> {
    const { keyId = null } = input;
    const filter = typeof keyId === 'string' ? keyId : undefined;
    const { query, problems } = parsePageQuery(input, listingOf(filter), ['keyId']);
    if (keyId !== null && !Array.isArray(keyId) && !isKeyId(keyId))
      problems.push({ field: 'keyId', message: 'keyId must be a key id: key_ followed by letters and digits' });
    if (problems.length > 0) throw new ValidationError(problems);

    const found = await this.log.list({ keyId: keyId as string | null, before: query.after, limit: query.limit + 1 });
    const page = found.slice(0, query.limit);
    const last = page.at(-1);
    return {
      events: page.map((event) => ({ ...event, at: event.at.toISOString() })),
      nextCursor: found.length > query.limit && last ? ListAuditEvents.cursorAt(last, filter) : null,
    };
  }
}
