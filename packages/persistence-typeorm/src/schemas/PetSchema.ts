import { PET_FIELD_NAMES, petField } from '@petstore/core';
import { EntitySchema } from 'typeorm';
import type { Dialect } from '../dialect.js';
import { int64, petFieldColumns } from './columns.js';

/** A row of `pets`: its id, a column per field of PET_FIELDS, its version. Written and read only by TypeOrmPetRepository (driverStatements.ts). */
export interface PetRow {
  id: number;
  version: number;
  status_changed_at_ms: number;
  [fieldColumn: string]: unknown;
}

const PET_ENTITY = 'PetstorePet';

/** The fields' columns after `status` and `id` in `idx_pets_status_id`, in PET_FIELDS's order. */
const COVERED_FIELD_COLUMNS = PET_FIELD_NAMES.map((name) => petField(name).column).filter((column) => column !== 'status');

/**
 * `pets` as the migrations create it. Two details TypeORM's entity schemas cannot say: the id is an identity
 * `GENERATED ALWAYS` on PostgreSQL and `AUTOINCREMENT` on SQLite (both: never reused), and on PostgreSQL the fields'
 * columns and `version` are INCLUDE columns of `idx_pets_status_id` rather than key columns. TypeORM's schema builder
 * compares neither, and the schema comes from migrations only, so the drift test still holds them to the migrations.
 *
 * `idx_pets_status_id` covers every column a page reads, so that a page of one status is read from the index alone:
 * a migration that adds a field rebuilds it with the field's column.
 */
export function petSchema(dialect: Dialect): EntitySchema<PetRow> {
  return new EntitySchema<PetRow>({
    name: PET_ENTITY,
    tableName: 'pets',
    columns: {
      id: int64(dialect, { primary: true, generated: 'increment' }),
      ...petFieldColumns(dialect),
      version: { type: 'integer', default: 1 },
      status_changed_at_ms: { ...int64(dialect), default: 0 },
    },
    // SQLite's check is unnamed, which TypeORM does not see there; PostgreSQL named it after the column.
    checks: dialect === 'postgres' ? [{ name: 'pets_status_check', expression: `"status" IN ('available', 'pending', 'sold')` }] : [],
    indices: [{ name: 'idx_pets_status_id', columns: ['status', 'id', ...COVERED_FIELD_COLUMNS, 'version'] }],
  });
}
