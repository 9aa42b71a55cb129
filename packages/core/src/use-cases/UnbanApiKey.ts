import type { AuditActor, AuditChange } from '../access/AuditEvent.js';
import type { KeyView } from '../access/KeyView.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyStore } from '../ports/KeyStore.js';
import type { RateLimitStore } from '../ports/RateLimitStore.js';
import { findKey } from './findKey.js';
import type { KeyAudit } from './KeyAudit.js';
import type { KeyViews } from './KeyViews.js';

export interface Unban {
  key: KeyView;
  /** A ban was in force and is lifted; false: the key was not banned (its strikes are forgotten all the same). */
  wasBanned: boolean;
}

/**
 * Lifts a key's rate-limit ban and forgets its strikes (for its quota and for its usage queries); its counts stay,
 * so a full window still rejects. Takes effect on every instance at once (the rate-limit store is shared). Audited
 * as `key.unbanned`, with `bannedUntil` before and after when a ban was lifted.
 */
export class UnbanApiKey {
  constructor(
    private readonly keys: KeyStore,
    private readonly rateLimits: RateLimitStore,
    private readonly views: KeyViews,
    private readonly audit: KeyAudit,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, actor: AuditActor): Promise<Unban> {
    const now = this.clock.now();
    const key = await findKey(this.keys, id);
    const subject = `key:${key.id}`;
    const { bannedUntil } = await this.rateLimits.read({ subject, now: now.getTime(), windows: [] });
    await Promise.all([this.rateLimits.unban(subject), this.rateLimits.unban(`usage:${subject}`)]);
    const changes: Record<string, AuditChange> =
      bannedUntil === null ? {} : { bannedUntil: { before: new Date(bannedUntil).toISOString(), after: null } };
    await this.audit.record(now, actor, 'key.unbanned', key, key, changes);
    return { key: await this.views.one(key), wasBanned: bannedUntil !== null };
  }
}
