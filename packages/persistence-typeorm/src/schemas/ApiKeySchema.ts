import { EntitySchema } from 'typeorm';
import { safeInteger } from './safeInteger.js';

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

export const ApiKeySchema = new EntitySchema<ApiKeyRow>({
  name: 'ApiKey',
  tableName: 'api_keys',
  columns: {
    id: { type: 'text', primary: true },
    name: { type: 'text' },
    plan: { type: 'text' },
    per_minute: { type: 'bigint', nullable: true, transformer: safeInteger },
    per_day: { type: 'bigint', nullable: true, transformer: safeInteger },
    secret_hash: { type: 'text' },
    created_at_ms: { type: 'bigint', transformer: safeInteger },
    revoked_at_ms: { type: 'bigint', nullable: true, transformer: safeInteger },
  },
  indices: [{ name: 'uq_api_keys_secret_hash', columns: ['secret_hash'], unique: true }],
});
