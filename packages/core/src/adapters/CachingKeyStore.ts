import type { ApiKey } from '../access/ApiKey.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyChanges, KeyListRequest, KeyLookup, KeyRotation, KeyStore } from '../ports/KeyStore.js';

interface CachedLookup {
  found: KeyLookup | null;
  expiresAt: number;
}

/**
 * Remembers `findByHash` answers (found or not) for `ttlMs`, so authenticating a request costs no storage round
 * trip. A change made elsewhere (another instance, the CLI: a revocation, rotation, scope, plan, limit, expiry or
 * disabled change) is therefore seen within `ttlMs`; a change made through this cache clears it at once. Time
 * rules (expiry, a rotated-out secret's end) are judged on every request from the cached record, so they apply to
 * the millisecond. At most `maxEntries` answers are kept; the oldest goes first.
 */
export class CachingKeyStore implements KeyStore {
  private readonly lookups = new Map<string, CachedLookup>();
  /** Moves on every change made through this cache: a lookup that started before a change is not remembered. */
  private generation = 0;

  constructor(
    private readonly inner: KeyStore,
    private readonly clock: Clock,
    readonly ttlMs = 2_000,
    private readonly maxEntries = 10_000,
  ) {}

  async findByHash(secretHash: string): Promise<KeyLookup | null> {
    const now = this.clock.now().getTime();
    const cached = this.lookups.get(secretHash);
    if (cached && cached.expiresAt > now) return cached.found;

    const generation = this.generation;
    const found = await this.inner.findByHash(secretHash);
    if (generation !== this.generation) return found;
    this.lookups.delete(secretHash);
    if (this.lookups.size >= this.maxEntries) this.lookups.delete(this.lookups.keys().next().value as string);
    this.lookups.set(secretHash, { found, expiresAt: now + this.ttlMs });
    return found;
  }

  findById(id: string): Promise<ApiKey | null> {
    return this.inner.findById(id);
  }

  create(key: ApiKey, secretHash: string): Promise<void> {
    this.lookups.delete(secretHash);
    return this.inner.create(key, secretHash);
  }

  list(request: KeyListRequest): Promise<ApiKey[]> {
    return this.inner.list(request);
  }

  update(expected: ApiKey, changes: KeyChanges): Promise<ApiKey | null> {
    return this.changing(() => this.inner.update(expected, changes));
  }

  revoke(id: string, at: Date): Promise<ApiKey | null> {
    return this.changing(() => this.inner.revoke(id, at));
  }

  rotate(id: string, rotation: KeyRotation): Promise<ApiKey | null> {
    return this.changing(() => this.inner.rotate(id, rotation));
  }

  /** Changes are rare: forget every answer, and whatever a lookup racing the change would bring back. */
  private async changing(change: () => Promise<ApiKey | null>): Promise<ApiKey | null> {
    this.generation++;
    this.lookups.clear();
    try {
      return await change();
    } finally {
      this.generation++;
      this.lookups.clear();
    }
  }
}
