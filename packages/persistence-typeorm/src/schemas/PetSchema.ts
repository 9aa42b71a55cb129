import { EntitySchema } from 'typeorm';
import { safeInteger } from './safeInteger.js';

/** A row of `pets`, as the database holds it (snake_case). The table is created by the migrations. */
export interface PetRow {
  id: number;
  name: string;
  category_id: number;
  status: string;
}

export const PetSchema = new EntitySchema<PetRow>({
  name: 'Pet',
  tableName: 'pets',
  columns: {
    id: { type: 'bigint', primary: true, generated: 'increment', transformer: safeInteger },
    name: { type: 'text' },
    category_id: { type: 'bigint', transformer: safeInteger },
    status: { type: 'text' },
  },
  indices: [{ name: 'idx_pets_status_id', columns: ['status', 'id'] }],
});
