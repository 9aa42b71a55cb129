import type { ApiKey } from '../access/ApiKey.js';
import { NotFoundError } from '../errors/NotFoundError.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyStore } from '../ports/KeyStore.js';

export interface Revocation {
  key: ApiKey;
  /** The key had been revoked before: nothing changed (its revocation time is the first one). */
  alreadyRevoked: boolean;
}

/** Revokes a key for good; revoking it again changes nothing, and says so. */
export class RevokeApiKey {
  constructor(
    private readonly keys: KeyStore,
    private readonly clock: Clock,
  ) {}

  async execute(id: string): Promise<Revocation> {
    const now = this.clock.now();
    const key = await this.keys.revoke(id, now);
    if (!key) throw new NotFoundError(`No API key with id ${id}.`);
    return { key, alreadyRevoked: key.revokedAt!.getTime() < now.getTime() };
  }
}
