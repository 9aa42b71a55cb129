import type { ApiKey } from '../access/ApiKey.js';
import { hashApiKeySecret, isWellFormedApiKeySecret } from '../access/ApiKeySecret.js';
import { KeyDisabledError } from '../errors/KeyDisabledError.js';
import { KeyExpiredError } from '../errors/KeyExpiredError.js';
import { UnauthorizedError } from '../errors/UnauthorizedError.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyStore } from '../ports/KeyStore.js';

/**
 * Bearer secret -> the key's record. Throws UnauthorizedError when the secret is missing, malformed (a bad checksum
 * included: refused without a store lookup), unknown, revoked, or a rotated-out secret past its grace period;
 * KeyExpiredError past the key's expiry; KeyDisabledError while it is disabled.
 * `null` stands for a credential sent in some other form than a bearer token: invalid, whatever it contains.
 */
export class AuthenticateKey {
  constructor(
    private readonly keys: KeyStore,
    private readonly clock: Clock,
  ) {}

  /** `now` (epoch ms) lets a caller that has read the clock for this request share that reading. */
  async execute(secret: string | null | undefined, now?: number): Promise<ApiKey> {
    if (secret === undefined || secret === '') throw new UnauthorizedError('missing');
    if (secret === null || !isWellFormedApiKeySecret(secret)) throw new UnauthorizedError('invalid');
    const found = await this.keys.findByHash(hashApiKeySecret(secret));
    if (found === null || found.key.revokedAt !== null) throw new UnauthorizedError('invalid');
    const { key, matched } = found;
    if (matched === 'current' && key.expiresAt === null && !key.disabled) return key; // the common case reads no clock

    const instant = now ?? this.clock.now().getTime();
    if (matched === 'previous' && (key.previousSecretExpiresAt === null || key.previousSecretExpiresAt.getTime() <= instant)) {
      throw new UnauthorizedError('invalid');
    }
    if (key.expiresAt !== null && key.expiresAt.getTime() <= instant) throw new KeyExpiredError(key.expiresAt);
    if (key.disabled) throw new KeyDisabledError();
    return key;
  }
}
