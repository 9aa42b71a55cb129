import type { ApiKey } from '../access/ApiKey.js';

/** Which of a key's secrets a hash matched: the current one, or the one the last rotation replaced. */
export type SecretGeneration = 'current' | 'previous';

export interface KeyLookup {
  key: ApiKey;
  matched: SecretGeneration;
}

/** A place in the listing order (`createdAt`, then `id`). */
export interface KeyPosition {
  createdAt: Date;
  id: string;
}

export interface KeyListRequest {
  /** Only keys strictly after this position; null from the start. */
  after: KeyPosition | null;
  /** At most this many keys (1 or more). */
  limit: number;
  /**
   * Only keys whose name contains this text (non-empty), ASCII letters compared without regard to case and every
   * other character exactly (`%` and `_` are plain characters); absent: every key.
   */
  nameContains?: string;
}

/** The settings an operator may change; an absent property is left as it is. */
export type KeyChanges = Partial<Pick<ApiKey, 'name' | 'plan' | 'limitOverrides' | 'scopes' | 'expiresAt' | 'disabled'>>;

export interface KeyRotation {
  /** The hash of the new current secret. */
  secretHash: string;
  /** Until when the secret being replaced keeps working (the rotation instant itself for no grace at all). */
  previousSecretExpiresAt: Date;
}

/**
 * API key records, indexed by the SHA-256 hashes of their secrets (the current one and, after a rotation, the
 * previous one). A secret itself is never stored. Plain rows fit: one row per key with `secret_hash` and
 * `previous_secret_hash` columns (both unique, the second nullable), `previous_secret_expires_at`, and one column per
 * ApiKey field. `describeKeyStoreContract` checks every adapter.
 */
export interface KeyStore {
  /**
   * The key whose current or previous secret has this hash, and which one matched; null when none. Validity (expiry,
   * the previous secret's end, revocation, disabling) is the caller's to judge: the store only finds.
   */
  findByHash(secretHash: string): Promise<KeyLookup | null>;
  findById(id: string): Promise<ApiKey | null>;
  /** Stores a new key with the hash of its secret; a duplicate id rejects. */
  create(key: ApiKey, secretHash: string): Promise<void>;
  /** Keys in the order of (`createdAt`, `id`), oldest first, optionally those whose name contains a text: keyset pagination. */
  list(request: KeyListRequest): Promise<ApiKey[]>;
  /**
   * A compare-and-set: applies the changes only if the key is still exactly `expected` (every field as it was read),
   * in one atomic step, and returns the key as it now is. Null when no such key exists or it changed since `expected`
   * was read (by another update, a revocation or a rotation): then nothing is changed, and the caller reads the key
   * again and decides afresh. Of concurrent updates from the same read, exactly one applies.
   */
  update(expected: ApiKey, changes: KeyChanges): Promise<ApiKey | null>;
  /** Marks the key revoked (keeps an earlier revocation time); null when no such key exists. */
  revoke(id: string, at: Date): Promise<ApiKey | null>;
  /**
   * In one step: the current secret hash becomes the previous one, ending at `previousSecretExpiresAt` (a secret
   * replaced by an earlier rotation is forgotten), and `secretHash` becomes the current one. Null when no such key.
   */
  rotate(id: string, rotation: KeyRotation): Promise<ApiKey | null>;
}
