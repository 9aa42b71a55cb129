import type { ApiKey } from '../access/ApiKey.js';
import type { KeyStore } from '../ports/KeyStore.js';

const copy = (key: ApiKey): ApiKey => ({ ...key, customLimits: key.customLimits && { ...key.customLimits } });

export class InMemoryKeyStore implements KeyStore {
  private readonly records = new Map<string, { key: ApiKey; secretHash: string }>();

  findByHash(secretHash: string): Promise<ApiKey | null> {
    for (const record of this.records.values()) if (record.secretHash === secretHash) return Promise.resolve(copy(record.key));
    return Promise.resolve(null);
  }

  findById(id: string): Promise<ApiKey | null> {
    const record = this.records.get(id);
    return Promise.resolve(record ? copy(record.key) : null);
  }

  create(key: ApiKey, secretHash: string): Promise<void> {
    if (this.records.has(key.id)) return Promise.reject(new Error(`duplicate key id ${key.id}`));
    this.records.set(key.id, { key: copy(key), secretHash });
    return Promise.resolve();
  }

  list(): Promise<ApiKey[]> {
    return Promise.resolve([...this.records.values()].map((r) => copy(r.key)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()));
  }

  revoke(id: string, at: Date): Promise<ApiKey | null> {
    const record = this.records.get(id);
    if (!record) return Promise.resolve(null);
    record.key.revokedAt ??= at;
    return Promise.resolve(copy(record.key));
  }

  replaceSecretHash(id: string, secretHash: string): Promise<ApiKey | null> {
    const record = this.records.get(id);
    if (!record) return Promise.resolve(null);
    record.secretHash = secretHash;
    return Promise.resolve(copy(record.key));
  }
}
