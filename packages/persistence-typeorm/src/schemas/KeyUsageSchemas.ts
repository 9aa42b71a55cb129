import { EntitySchema } from 'typeorm';
import type { Dialect } from '../dialect.js';
import { int64 } from './columns.js';

/**
 * A row of `key_usage_days`: the requests one key made on one UTC day (`YYYY-MM-DD`), summed over every instance:
 * those admitted, and those its rate limit refused.
 */
export interface KeyUsageDayRow {
  key_id: string;
  day: string;
  requests: number;
  limited: number;
}

/** A row of `key_last_uses`: one key's latest use seen by any instance. */
export interface KeyLastUseRow {
  key_id: string;
  last_used_at_ms: number;
}

export const KEY_USAGE_DAY_ENTITY = 'PetstoreKeyUsageDay';
export const KEY_LAST_USE_ENTITY = 'PetstoreKeyLastUse';

export function keyUsageDaySchema(dialect: Dialect): EntitySchema<KeyUsageDayRow> {
  return new EntitySchema<KeyUsageDayRow>({
    name: KEY_USAGE_DAY_ENTITY,
    tableName: 'key_usage_days',
    columns: {
      key_id: { type: 'text', primary: true },
      day: { type: 'text', primary: true },
      requests: int64(dialect),
      limited: { ...int64(dialect), default: 0 },
    },
    indices: [{ name: 'idx_key_usage_days_day', columns: ['day'] }],
  });
}

export function keyLastUseSchema(dialect: Dialect): EntitySchema<KeyLastUseRow> {
  return new EntitySchema<KeyLastUseRow>({
    name: KEY_LAST_USE_ENTITY,
    tableName: 'key_last_uses',
    columns: {
      key_id: { type: 'text', primary: true },
      last_used_at_ms: int64(dialect),
    },
  });
}
