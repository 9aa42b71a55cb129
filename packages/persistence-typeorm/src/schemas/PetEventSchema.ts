import { EntitySchema } from 'typeorm';
import type { Dialect } from '../dialect.js';
import { int64, petFieldColumns } from './columns.js';

/**
 * A row of `pet_events`: written by TypeOrmPetRepository (driverStatements.ts) in the transaction of the change it
 * records, read by TypeOrmEventLog. The pet as the change left it has a column per field of PET_FIELDS, and its
 * values before the change a `before_` column each, null for `pet.created`.
 */
export interface PetEventRow {
  id: string;
  type: string;
  at_ms: number;
  pet_id: number;
  version: number;
  [fieldColumn: string]: unknown;
  /** Turned into deliveries already (TypeOrmWebhookStore.dispatch). */
  dispatched: boolean;
  /** Its place in the order events were dispatched in (webhookDispatch.ts); null before. */
  dispatch_seq: number | null;
}

export const PET_EVENT_ENTITY = 'PetstorePetEvent';

export function petEventSchema(dialect: Dialect): EntitySchema<PetEventRow> {
  return new EntitySchema<PetEventRow>({
    name: PET_EVENT_ENTITY,
    tableName: 'pet_events',
    columns: {
      id: { type: 'text', primary: true },
      type: { type: 'text' },
      at_ms: int64(dialect),
      pet_id: int64(dialect),
      ...petFieldColumns(dialect),
      version: { type: 'integer' },
      ...petFieldColumns(dialect, 'before_', true),
      dispatched: { type: 'boolean', default: false },
      dispatch_seq: int64(dialect, { nullable: true }),
    },
    indices: [
      { name: 'idx_pet_events_at_id', columns: ['at_ms', 'id'] },
      { name: 'idx_pet_events_dispatched', columns: ['dispatched', 'at_ms', 'id'] },
      { name: 'idx_pet_events_dispatch_seq', columns: ['dispatch_seq'] },
    ],
  });
}
