import type { ApiKey } from '../access/ApiKey.js';
import { NotFoundError } from '../errors/NotFoundError.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyStore } from '../ports/KeyStore.js';

/** Revokes a key for good; revoking it again changes nothing. */
export class RevokeApiKey {
  constructor(
    private readonly keys: KeyStore,
    private readonly clock: Clock,
  ) {}

  async execute(id: string): Promise<ApiKey> {
    const key = await this.keys.revoke(id, this.clock.now());
    if (!key) throw new NotFoundError(`No API key with id ${id}.`);
    return key;
  }
}
