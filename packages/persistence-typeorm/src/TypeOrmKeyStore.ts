import type { ApiKey, KeyStore, Plan } from '@petstore/core';
import { IsNull, type DataSource, type Repository } from 'typeorm';
import { API_KEY_ENTITY, type ApiKeyRow } from './schemas/ApiKeySchema.js';
import { translateDatabaseError } from './translateDatabaseError.js';

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as Plan,
    customLimits: row.per_minute !== null && row.per_day !== null ? { perMinute: row.per_minute, perDay: row.per_day } : null,
    createdAt: new Date(row.created_at_ms),
    revokedAt: row.revoked_at_ms === null ? null : new Date(row.revoked_at_ms),
  };
}

function toApiKeyRow(key: ApiKey, secretHash: string): ApiKeyRow {
  return {
    id: key.id,
    name: key.name,
    plan: key.plan,
    per_minute: key.customLimits?.perMinute ?? null,
    per_day: key.customLimits?.perDay ?? null,
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

  findByHash(secretHash: string): Promise<ApiKey | null> {
    return this.guard(async () => {
      const row = await this.rows.findOneBy({ secret_hash: secretHash });
      return row && toApiKey(row);
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

  list(): Promise<ApiKey[]> {
    return this.guard(async () => (await this.rows.find({ order: { created_at_ms: 'ASC', id: 'ASC' } })).map(toApiKey));
  }

  revoke(id: string, at: Date): Promise<ApiKey | null> {
    return this.guard(async () => {
      await this.rows.update({ id, revoked_at_ms: IsNull() }, { revoked_at_ms: at.getTime() });
      return this.findById(id);
    });
  }

  replaceSecretHash(id: string, secretHash: string): Promise<ApiKey | null> {
    return this.guard(async () => {
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
