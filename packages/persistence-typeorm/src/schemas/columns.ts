import { PET_FIELD_NAMES, petField } from '@petstore/core';
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

/**
 * The columns of the pet's fields (core's PET_FIELDS), each named `prefix` and its column: nullable when the field is
 * optional, or when `nullable` (the values before a change, which a creation lacks).
 */
export function petFieldColumns(dialect: Dialect, prefix = '', nullable = false): Record<string, EntitySchemaColumnOptions> {
  return Object.fromEntries(
    PET_FIELD_NAMES.map((name) => {
      const { kind, column, optional = false } = petField(name);
      const options = { nullable: nullable || optional };
      return [`${prefix}${column}`, kind === 'id' ? int64(dialect, options) : { type: 'text', ...options }];
    }),
  );
}
