import { EntitySchema } from 'typeorm';
import type { Dialect } from '../dialect.js';
import { int64 } from './columns.js';

/** A row of `pets`. Pets are written and read only by TypeOrmPetRepository (driverStatements.ts). */
export interface PetRow {
  id: number;
  name: string;
  category_id: number;
  status: string;
  version: number;
  status_changed_at_ms: number;
}

const PET_ENTITY = 'PetstorePet';

/**
 * `pets` as the migrations create it. Two details TypeORM's entity schemas cannot say: the id is an identity
 * `GENERATED ALWAYS` on PostgreSQL and `AUTOINCREMENT` on SQLite (both: never reused), and on PostgreSQL `name` and
 * `category_id` and `version` are INCLUDE columns of `idx_pets_status_id` rather than key columns. TypeORM's schema builder
 * compares neither, and the schema comes from migrations only, so the drift test still holds them to the migrations.
 */
export function petSchema(dialect: Dialect): EntitySchema<PetRow> {
  return new EntitySchema<PetRow>({
    name: PET_ENTITY,
    tableName: 'pets',
    columns: {
      id: int64(dialect, { primary: true, generated: 'increment' }),
      name: { type: 'text' },
      category_id: int64(dialect),
      status: { type: 'text' },
      version: { type: 'integer', default: 1 },
      status_changed_at_ms: { ...int64(dialect), default: 0 },
    },
    // SQLite's check is unnamed, which TypeORM does not see there; PostgreSQL named it after the column.
    checks: dialect === 'postgres' ? [{ name: 'pets_status_check', expression: `"status" IN ('available', 'pending', 'sold')` }] : [],
    indices: [{ name: 'idx_pets_status_id', columns: ['status', 'id', 'name', 'category_id', 'version'] }],
  });
}
