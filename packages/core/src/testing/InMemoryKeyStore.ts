import type { ApiKey } from '../access/ApiKey.js';
import { foldAsciiCase } from '../access/foldAsciiCase.js';
import type { KeyChanges, KeyListRequest, KeyLookup, KeyPosition, KeyRotation, KeyStore } from '../ports/KeyStore.js';

const copy = (key: ApiKey): ApiKey => ({ ...key, limitOverrides: { ...key.limitOverrides }, scopes: [...key.scopes] });

interface KeyRecord {
  key: ApiKey;
  secretHash: string;
  previousSecretHash: string | null;
}

const instant = (value: Date | null) => value?.getTime() ?? null;

/** Whether two readings of a key hold the same values in every field. */
function sameKey(a: ApiKey, b: ApiKey): boolean {
  return (
    a.id === b.id &&
    a.name === b.name &&
    a.plan === b.plan &&
    a.limitOverrides.perMinute === b.limitOverrides.perMinute &&
    a.limitOverrides.perDay === b.limitOverrides.perDay &&
    a.scopes.join() === b.scopes.join() &&
    instant(a.expiresAt) === instant(b.expiresAt) &&
    a.disabled === b.disabled &&
    instant(a.createdAt) === instant(b.createdAt) &&
    instant(a.revokedAt) === instant(b.revokedAt) &&
    instant(a.previousSecretExpiresAt) === instant(b.previousSecretExpiresAt)
  );
}

const listingOrder = (a: KeyPosition, b: KeyPosition) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const isAfter = (key: ApiKey, position: KeyPosition) => listingOrder(key, position) > 0;

export class InMemoryKeyStore implements KeyStore {
  private readonly records = new Map<string, KeyRecord>();
  private readonly byHash = new Map<string, KeyRecord>();

  findByHash(secretHash: string): Promise<KeyLookup | null> {
    const record = this.byHash.get(secretHash);
    if (!record) return Promise.resolve(null);
    return Promise.resolve({ key: copy(record.key), matched: record.secretHash === secretHash ? 'current' : 'previous' });
  }

  findById(id: string): Promise<ApiKey | null> {
    const record = this.records.get(id);
    return Promise.resolve(record ? copy(record.key) : null);
  }

  create(key: ApiKey, secretHash: string): Promise<void> {
    if (this.records.has(key.id)) return Promise.reject(new Error(`duplicate key id ${key.id}`));
    if (this.byHash.has(secretHash)) return Promise.reject(new Error('duplicate secret hash'));
    const record: KeyRecord = { key: copy(key), secretHash, previousSecretHash: null };
    this.records.set(key.id, record);
    this.byHash.set(secretHash, record);
    return Promise.resolve();
  }

  list({ after, limit, nameContains }: KeyListRequest): Promise<ApiKey[]> {
    const wanted = nameContains === undefined ? null : foldAsciiCase(nameContains);
    const keys = [...this.records.values()]
      .map((r) => r.key)
      .filter((key) => (after === null || isAfter(key, after)) && (wanted === null || foldAsciiCase(key.name).includes(wanted)));
    return Promise.resolve(keys.sort(listingOrder).slice(0, limit).map(copy));
  }

  update(expected: ApiKey, changes: KeyChanges): Promise<ApiKey | null> {
    const record = this.records.get(expected.id);
    if (!record || !sameKey(record.key, expected)) return Promise.resolve(null);
    record.key = copy({ ...record.key, ...changes });
    return Promise.resolve(copy(record.key));
  }

  revoke(id: string, at: Date): Promise<ApiKey | null> {
    const record = this.records.get(id);
    if (!record) return Promise.resolve(null);
    record.key.revokedAt ??= at;
    return Promise.resolve(copy(record.key));
  }

  rotate(id: string, { secretHash, previousSecretExpiresAt }: KeyRotation): Promise<ApiKey | null> {
    const record = this.records.get(id);
    if (!record) return Promise.resolve(null);
    if (this.byHash.has(secretHash)) return Promise.reject(new Error('duplicate secret hash'));
    if (record.previousSecretHash !== null) this.byHash.delete(record.previousSecretHash);
    record.previousSecretHash = record.secretHash;
    record.secretHash = secretHash;
    record.key.previousSecretExpiresAt = previousSecretExpiresAt;
    this.byHash.set(secretHash, record);
    return Promise.resolve(copy(record.key));
  }
}
