import {
  foldAsciiCase,
  SCOPES,
  type ApiKey,
  type KeyChanges,
  type KeyListRequest,
  type KeyLookup,
  type KeyRotation,
  type KeyStore,
  type Plan,
  type Scope,
} from '@petstore/core';
import { IsNull, MoreThan, Raw, type DataSource, type FindOptionsWhere, type Repository } from 'typeorm';
import { dialectOf, type Dialect } from './dialect.js';
import { API_KEY_ENTITY, type ApiKeyRow } from './schemas/ApiKeySchema.js';
import { translateDatabaseError } from './translateDatabaseError.js';

const toMs = (instant: Date | null) => instant?.getTime() ?? null;
const toDate = (ms: number | null) => (ms === null ? null : new Date(ms));
const scopesFrom = (text: string): Scope[] => SCOPES.filter((scope) => text.split(',').includes(scope));

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as Plan,
    limitOverrides: { perMinute: row.per_minute, perDay: row.per_day },
    scopes: scopesFrom(row.scopes),
    expiresAt: toDate(row.expires_at_ms),
    disabled: row.disabled,
    createdAt: new Date(row.created_at_ms),
    revokedAt: toDate(row.revoked_at_ms),
    previousSecretExpiresAt: toDate(row.previous_secret_expires_at_ms),
  };
}

function toApiKeyRow(key: ApiKey, secretHash: string): ApiKeyRow {
  return {
    id: key.id,
    name: key.name,
    plan: key.plan,
    per_minute: key.limitOverrides.perMinute,
    per_day: key.limitOverrides.perDay,
    secret_hash: secretHash,
    created_at_ms: key.createdAt.getTime(),
    revoked_at_ms: toMs(key.revokedAt),
    scopes: key.scopes.join(','),
    expires_at_ms: toMs(key.expiresAt),
    disabled: key.disabled,
    previous_secret_hash: null,
    previous_secret_expires_at_ms: toMs(key.previousSecretExpiresAt),
  };
}

const ASCII_UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

const equalTo = <T>(value: T | null) => (value === null ? IsNull() : value);

/** The row of `key`, as long as every field still holds the value it was read with. */
function unchangedSince(key: ApiKey): FindOptionsWhere<ApiKeyRow> {
  return {
    id: key.id,
    name: key.name,
    plan: key.plan,
    per_minute: equalTo(key.limitOverrides.perMinute),
    per_day: equalTo(key.limitOverrides.perDay),
    scopes: key.scopes.join(','),
    expires_at_ms: equalTo(toMs(key.expiresAt)),
    disabled: key.disabled,
    revoked_at_ms: equalTo(toMs(key.revokedAt)),
    previous_secret_expires_at_ms: equalTo(toMs(key.previousSecretExpiresAt)),
  };
}

/** KeyStore on TypeORM's repository API: an administrative path, cached in front of by CachingKeyStore. */
export class TypeOrmKeyStore implements KeyStore {
  private readonly rows: Repository<ApiKeyRow>;
  private readonly dialect: Dialect;

  constructor(dataSource: DataSource) {
    this.dialect = dialectOf(dataSource);
    this.rows = dataSource.getRepository<ApiKeyRow>(API_KEY_ENTITY);
  }

  findByHash(secretHash: string): Promise<KeyLookup | null> {
    return this.guard(async () => {
      const row = await this.rows.findOneBy([{ secret_hash: secretHash }, { previous_secret_hash: secretHash }]);
      return row && { key: toApiKey(row), matched: row.secret_hash === secretHash ? 'current' : 'previous' };
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

  list({ after, limit, nameContains }: KeyListRequest): Promise<ApiKey[]> {
    return this.guard(async () => {
      const named = nameContains === undefined ? {} : { name: this.nameContaining(nameContains) };
      const where = after
        ? [
            { created_at_ms: MoreThan(after.createdAt.getTime()), ...named },
            { created_at_ms: after.createdAt.getTime(), id: MoreThan(after.id), ...named },
          ]
        : named;
      return (await this.rows.find({ where, order: { created_at_ms: 'ASC', id: 'ASC' }, take: limit })).map(toApiKey);
    });
  }

  /**
   * The name condition of a search: ASCII letters folded on both sides (SQLite's `lower` folds only those;
   * PostgreSQL's `translate` is told to), `%`, `_` and `\` matched as themselves.
   */
  private nameContaining(text: string) {
    const pattern = `%${foldAsciiCase(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const folded = (column: string) =>
      this.dialect === 'postgres' ? `translate(${column}, '${ASCII_UPPER}', '${ASCII_UPPER.toLowerCase()}')` : `lower(${column})`;
    return Raw((column) => `${folded(column)} LIKE :pattern ESCAPE '\\'`, { pattern });
  }

  update(expected: ApiKey, changes: KeyChanges): Promise<ApiKey | null> {
    return this.guard(async () => {
      const { scopes, expiresAt, limitOverrides, ...rest } = changes;
      const columns = {
        ...rest,
        ...(limitOverrides && { per_minute: limitOverrides.perMinute, per_day: limitOverrides.perDay }),
        ...(scopes && { scopes: scopes.join(',') }),
        ...(expiresAt !== undefined && { expires_at_ms: toMs(expiresAt) }),
      };
      // One UPDATE whose WHERE names every field as read: PostgreSQL re-checks it on the row a concurrent writer
      // left, SQLite runs one writer at a time; either way a stale change matches no row and the caller retries.
      const { affected } = await this.rows.update(unchangedSince(expected), { ...columns, id: expected.id });
      return affected ? { ...expected, ...changes } : null;
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
      // SET reads the row as it was: the current hash moves to previous_secret_hash, the one it held is forgotten.
      const { affected } = await this.rows
        .createQueryBuilder()
        .update()
        .set({
          previous_secret_hash: () => '"secret_hash"',
          secret_hash: secretHash,
          previous_secret_expires_at_ms: previousSecretExpiresAt.getTime(),
        })
        .where({ id })
        .execute();
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
