import { petEventOf, type EventListRequest, type EventLog, type PetDraft, type PetEvent, type PetEventType, type PetStatus } from '@petstore/core';
import { In, LessThan, type DataSource, type Repository } from 'typeorm';
import { PET_EVENT_ENTITY, type PetEventRow } from './schemas/PetEventSchema.js';
import { translateDatabaseError } from './translateDatabaseError.js';

function beforeOf(row: PetEventRow): PetDraft | null {
  if (row.before_name === null || row.before_category_id === null || row.before_status === null) return null;
  return { name: row.before_name, categoryId: row.before_category_id, status: row.before_status as PetStatus };
}

function toPetEvent(row: PetEventRow): PetEvent {
  return petEventOf({
    id: row.id,
    type: row.type as PetEventType,
    at: new Date(row.at_ms),
    pet: { id: row.pet_id, name: row.name, categoryId: row.category_id, status: row.status as PetStatus, version: row.version },
    before: beforeOf(row),
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
