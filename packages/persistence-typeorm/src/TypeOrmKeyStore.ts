import {
  SCOPES,
  type ApiKey,
  type KeyChanges,
  type KeyListRequest,
  type KeyLookup,
  type KeyRotation,
  type KeyStore,
  type Plan,
} from '@petstore/core';
import { IsNull, MoreThan, type DataSource, type Repository } from 'typeorm';
import { API_KEY_ENTITY, type ApiKeyRow } from './schemas/ApiKeySchema.js';
import { translateDatabaseError } from './translateDatabaseError.js';

// Interim: the `api_keys` table has no columns yet for scopes, expiry, disabling or a rotated-out secret (a later
// migration adds them). Until then every key has both scopes, no expiry, is enabled, and a rotation replaces the
// secret at once; asking to store anything else fails loudly instead of being dropped.
const NOT_YET = 'TypeOrmKeyStore cannot store scopes, expiry, disabling or a rotation grace period until the key-model migration';

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as Plan,
    limitOverrides: { perMinute: row.per_minute, perDay: row.per_day },
    scopes: [...SCOPES],
    expiresAt: null,
    disabled: false,
    createdAt: new Date(row.created_at_ms),
    revokedAt: row.revoked_at_ms === null ? null : new Date(row.revoked_at_ms),
    previousSecretExpiresAt: null,
  };
}

function toApiKeyRow(key: ApiKey, secretHash: string): ApiKeyRow {
  if (key.scopes.length !== SCOPES.length || key.expiresAt !== null || key.disabled || key.previousSecretExpiresAt !== null) {
    throw new Error(NOT_YET);
  }
  return {
    id: key.id,
    name: key.name,
    plan: key.plan,
    per_minute: key.limitOverrides.perMinute,
    per_day: key.limitOverrides.perDay,
    secret_hash: secretHash,
    created_at_ms: key.createdAt.getTime(),
    revoked_at_ms: key.revokedAt?.getTime() ?? null,
  };
}

/** KeyStore on TypeORM's repository API: an administrative path, cached in front of by CachingKeyStore. */
export class TypeOrmKeyStore implements KeyStore {
  private readonly rows: Repository<ApiKeyRow>;

  constructor(dataSource: DataSource) {
    this.rows = dataSource.getRepository<ApiKeyRow>(API_KEY_ENTITY);
  }

  findByHash(secretHash: string): Promise<KeyLookup | null> {
    return this.guard(async () => {
      const row = await this.rows.findOneBy({ secret_hash: secretHash });
      return row && { key: toApiKey(row), matched: 'current' };
    });
  }

  findById(id: string): Promise<ApiKey | null> {
    return this.guard(async () => {
      const row = await this.rows.findOneBy({ id });
      return row && toApiKey(row);
    });
  }

  create(key: ApiKey, secretHash: string): Promise<void> {
    return this.guard(async () => {
      await this.rows.insert(toApiKeyRow(key, secretHash));
    });
  }

  list({ after, limit }: KeyListRequest): Promise<ApiKey[]> {
    return this.guard(async () => {
      const where = after && [
        { created_at_ms: MoreThan(after.createdAt.getTime()) },
        { created_at_ms: after.createdAt.getTime(), id: MoreThan(after.id) },
      ];
      return (await this.rows.find({ ...(where && { where }), order: { created_at_ms: 'ASC', id: 'ASC' }, take: limit })).map(toApiKey);
    });
  }

  update(id: string, { scopes, expiresAt, disabled, limitOverrides, ...rest }: KeyChanges): Promise<ApiKey | null> {
    return this.guard(async () => {
      if ((scopes && scopes.length !== SCOPES.length) || (expiresAt ?? null) !== null || disabled === true) throw new Error(NOT_YET);
      const changes = { ...rest, ...(limitOverrides && { per_minute: limitOverrides.perMinute, per_day: limitOverrides.perDay }) };
      if (Object.keys(changes).length > 0) await this.rows.update({ id }, changes);
      return this.findById(id);
    });
  }

  revoke(id: string, at: Date): Promise<ApiKey | null> {
    return this.guard(async () => {
      await this.rows.update({ id, revoked_at_ms: IsNull() }, { revoked_at_ms: at.getTime() });
      return this.findById(id);
    });
  }

  rotate(id: string, { secretHash, previousSecretExpiresAt }: KeyRotation): Promise<ApiKey | null> {
    return this.guard(async () => {
      if (previousSecretExpiresAt.getTime() > Date.now()) throw new Error(NOT_YET);
      const { affected } = await this.rows.update({ id }, { secret_hash: secretHash });
      return affected ? this.findById(id) : null;
    });
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      translateDatabaseError(error);
    }
  }
}
