import type { AuditActor } from '../access/AuditEvent.js';
import type { KeyView } from '../access/KeyView.js';
import { NotFoundError } from '../errors/NotFoundError.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyStore } from '../ports/KeyStore.js';
import { findKey } from './findKey.js';
import type { KeyAudit } from './KeyAudit.js';
import type { KeyViews } from './KeyViews.js';

export interface Revocation {
  key: KeyView;
  /** The key had been revoked before: nothing changed (its revocation time is the first one). */
  alreadyRevoked: boolean;
}

/** Revokes a key for good (both its secrets); revoking it again changes nothing, and says so. Audited either way. */
export class RevokeApiKey {
  constructor(
    private readonly keys: KeyStore,
    private readonly views: KeyViews,
    private readonly audit: KeyAudit,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, actor: AuditActor): Promise<Revocation> {
    const now = this.clock.now();
    const before = await findKey(this.keys, id);
    const after = await this.keys.revoke(id, now);
    if (!after) throw new NotFoundError(`No API key with id ${id}.`);
    await this.audit.record(now, actor, 'key.revoked', before, after);
    return { key: await this.views.one(after), alreadyRevoked: after.revokedAt!.getTime() < now.getTime() };
  }
}
