import type { ApiKey } from '../access/ApiKey.js';

/** API key records, indexed by the SHA-256 hash of their secret. The secret itself is never stored. */
export interface KeyStore {
  findByHash(secretHash: string): Promise<ApiKey | null>;
  findById(id: string): Promise<ApiKey | null>;
  create(key: ApiKey, secretHash: string): Promise<void>;
  /** Oldest first. */
  list(): Promise<ApiKey[]>;
  /** Marks the key revoked (keeps an earlier revocation time); null when no such key exists. */
  revoke(id: string, at: Date): Promise<ApiKey | null>;
  /** Replaces the secret hash, so the old secret stops working; null when no such key exists. */
  replaceSecretHash(id: string, secretHash: string): Promise<ApiKey | null>;
}
