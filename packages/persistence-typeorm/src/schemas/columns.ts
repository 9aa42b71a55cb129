import type { EntitySchemaColumnOptions } from 'typeorm';
import type { Dialect } from '../dialect.js';
import { safeInteger } from './safeInteger.js';

/**
 * An int64 column as the migrations declare it: `bigint` on PostgreSQL, `INTEGER` on SQLite (the two report
 * different types to TypeORM, so one column type cannot match both), read back as a safe JavaScript integer.
 */
export function int64(
  dialect: Dialect,
  options: Pick<EntitySchemaColumnOptions, 'nullable' | 'primary' | 'generated'> = {},
): EntitySchemaColumnOptions {
  return { type: dialect === 'postgres' ? 'bigint' : 'integer', transformer: safeInteger, ...options };
}
