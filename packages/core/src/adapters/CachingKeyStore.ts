import type { Clock } from '../ports/Clock.js';
import type { KeyStore } from '../ports/KeyStore.js';
import type { ApiKey } from '../access/ApiKey.js';

interface CachedLookup {
  key: ApiKey | null;
  expiresAt: number;
}

/**
 * Remembers `findByHash` answers (found or not) for `ttlMs`, so authenticating a request costs no storage round
 * trip. A key revoked or rotated elsewhere (another process, the CLI) is therefore rejected within `ttlMs`.
 * At most `maxEntries` answers are kept; the oldest goes first.
 */
export class CachingKeyStore implements KeyStore {
  private readonly lookups = new Map<string, CachedLookup>();

  constructor(
    private readonly inner: KeyStore,
    private readonly clock: Clock,
    readonly ttlMs = 2_000,
    private readonly maxEntries = 10_000,
  ) {}

  async findByHash(secretHash: string): Promise<ApiKey | null> {
    const now = this.clock.now().getTime();
    const cached = this.lookups.get(secretHash);
    if (cached && cached.expiresAt > now) return cached.key;

    const key = await this.inner.findByHash(secretHash);
    this.lookups.delete(secretHash);
    if (this.lookups.size >= this.maxEntries) this.lookups.delete(this.lookups.keys().next().value as string);
    this.lookups.set(secretHash, { key, expiresAt: now + this.ttlMs });
    return key;
  }

  findById(id: string): Promise<ApiKey | null> {
    return this.inner.findById(id);
  }

  create(key: ApiKey, secretHash: string): Promise<void> {
    this.lookups.delete(secretHash);
    return this.inner.create(key, secretHash);
  }

  list(): Promise<ApiKey[]> {
    return this.inner.list();
  }

  async revoke(id: string, at: Date): Promise<ApiKey | null> {
    this.lookups.clear();
    return this.inner.revoke(id, at);
  }

  async replaceSecretHash(id: string, secretHash: string): Promise<ApiKey | null> {
    this.lookups.clear();
    return this.inner.replaceSecretHash(id, secretHash);
  }
}
