import { EntitySchema } from 'typeorm';
import type { Dialect } from '../dialect.js';
import { int64 } from './columns.js';

/** A row of `api_keys`. Times are epoch milliseconds in both databases; the secret is only ever a hash. */
export interface ApiKeyRow {
  id: string;
  name: string;
  plan: string;
  per_minute: number | null;
  per_day: number | null;
  secret_hash: string;
  created_at_ms: number;
  revoked_at_ms: number | null;
}

export const API_KEY_ENTITY = 'PetstoreApiKey';

export function apiKeySchema(dialect: Dialect): EntitySchema<ApiKeyRow> {
  return new EntitySchema<ApiKeyRow>({
    name: API_KEY_ENTITY,
    tableName: 'api_keys',
    columns: {
      id: { type: 'text', primary: true },
      name: { type: 'text' },
      plan: { type: 'text' },
      per_minute: int64(dialect, { nullable: true }),
      per_day: int64(dialect, { nullable: true }),
      secret_hash: { type: 'text' },
      created_at_ms: int64(dialect),
      revoked_at_ms: int64(dialect, { nullable: true }),
    },
    indices: [{ name: 'uq_api_keys_secret_hash', columns: ['secret_hash'], unique: true }],
  });
}
