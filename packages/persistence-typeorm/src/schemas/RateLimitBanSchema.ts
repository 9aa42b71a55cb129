import { EntitySchema } from 'typeorm';
import type { Dialect } from '../dialect.js';
import { int64 } from './columns.js';

/** A row of `rate_limit_bans`: a ban of the in-process rate-limit store, kept across restarts. */
export interface RateLimitBanRow {
  subject: string;
  banned_until_ms: number;
}

export const RATE_LIMIT_BAN_ENTITY = 'PetstoreRateLimitBan';

export function rateLimitBanSchema(dialect: Dialect): EntitySchema<RateLimitBanRow> {
  return new EntitySchema<RateLimitBanRow>({
    name: RATE_LIMIT_BAN_ENTITY,
    tableName: 'rate_limit_bans',
    columns: {
      subject: { type: 'text', primary: true },
      banned_until_ms: int64(dialect),
    },
  });
}
