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
  /** Comma-separated, in the order of SCOPES. */
  scopes: string;
  expires_at_ms: number | null;
  disabled: boolean;
  previous_secret_hash: string | null;
  previous_secret_expires_at_ms: number | null;
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
      scopes: { type: 'text', default: 'pets:read,pets:write' },
      expires_at_ms: int64(dialect, { nullable: true }),
      disabled: { type: 'boolean', default: false },
      previous_secret_hash: { type: 'text', nullable: true },
      previous_secret_expires_at_ms: int64(dialect, { nullable: true }),
    },
    indices: [
      { name: 'uq_api_keys_secret_hash', columns: ['secret_hash'], unique: true },
      { name: 'uq_api_keys_previous_secret_hash', columns: ['previous_secret_hash'], unique: true },
    ],
  });
}
