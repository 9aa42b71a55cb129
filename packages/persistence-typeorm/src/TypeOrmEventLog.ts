import {
  PET_FIELD_NAMES,
  petEventOf,
  petField,
  type EventListRequest,
  type EventLog,
  type PetDraft,
  type PetEvent,
  type PetEventType,
} from '@petstore/core';
import { In, LessThan, type DataSource, type Repository } from 'typeorm';
import { PET_EVENT_ENTITY, type PetEventRow } from './schemas/PetEventSchema.js';
import { translateDatabaseError } from './translateDatabaseError.js';

/** The fields of a pet whose columns are `prefix` and each field's column; null if one it must have is null (no values before a creation). */
function fieldsOf(row: PetEventRow, prefix: string): PetDraft | null {
  const fields: Record<string, unknown> = {};
  for (const name of PET_FIELD_NAMES) {
    const { column, optional } = petField(name);
    const value = row[`${prefix}${column}`];
    if (value !== null && value !== undefined) fields[name] = value;
    else if (!optional) return null;
  }
  return fields as PetDraft;
}

function toPetEvent(row: PetEventRow): PetEvent {
  return petEventOf({
    id: row.id,
    type: row.type as PetEventType,
    at: new Date(row.at_ms),
    pet: { id: row.pet_id, ...fieldsOf(row, '')!, version: row.version },
    before: fieldsOf(row, 'before_'),
  });
}

/** EventLog on `pet_events`, which TypeOrmPetRepository writes with each change; pages are index range scans on (at, id). */
export class TypeOrmEventLog implements EventLog {
  private readonly rows: Repository<PetEventRow>;

  constructor(dataSource: DataSource) {
    this.rows = dataSource.getRepository<PetEventRow>(PET_EVENT_ENTITY);
  }

  async listEvents({ before, limit }: EventListRequest): Promise<PetEvent[]> {
    const where = before ? [{ at_ms: LessThan(before.at.getTime()) }, { at_ms: before.at.getTime(), id: LessThan(before.id) }] : {};
    try {
      return (await this.rows.find({ where, order: { at_ms: 'DESC', id: 'DESC' }, take: limit })).map(toPetEvent);
    } catch (error) {
      translateDatabaseError(error);
    }
  }

  async findEvents(ids: readonly string[]): Promise<PetEvent[]> {
    if (ids.length === 0) return [];
    try {
      return (await this.rows.findBy({ id: In([...ids]) })).map(toPetEvent);
    } catch (error) {
      translateDatabaseError(error);
    }
  }
}
