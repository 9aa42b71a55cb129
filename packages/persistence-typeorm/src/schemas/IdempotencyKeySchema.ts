import { EntitySchema } from 'typeorm';
import type { Dialect } from '../dialect.js';
import { int64 } from './columns.js';

/**
 * A row of `idempotency_keys`: one idempotency key of one API key (`scope`), claimed at `claimed_at_ms`, with the
 * created pet as JSON once the request completed. `expires_at_ms` serves the purge.
 */
export interface IdempotencyKeyRow {
  scope: string;
  key: string;
  fingerprint: string;
  pet_json: string | null;
  claimed_at_ms: number;
  expires_at_ms: number;
}

export const IDEMPOTENCY_KEY_ENTITY = 'PetstoreIdempotencyKey';

export function idempotencyKeySchema(dialect: Dialect): EntitySchema<IdempotencyKeyRow> {
  return new EntitySchema<IdempotencyKeyRow>({
    name: IDEMPOTENCY_KEY_ENTITY,
    tableName: 'idempotency_keys',
    columns: {
      scope: { type: 'text', primary: true },
      key: { type: 'text', primary: true },
      fingerprint: { type: 'text' },
      pet_json: { type: 'text', nullable: true },
      claimed_at_ms: int64(dialect),
      expires_at_ms: int64(dialect),
    },
    indices: [{ name: 'idx_idempotency_keys_expires', columns: ['expires_at_ms'] }],
  });
}
