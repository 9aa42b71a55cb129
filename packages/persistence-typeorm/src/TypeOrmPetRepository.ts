import { type Pet, type PetDraft, type PetListRequest, type PetPage, type PetRepository, type PetStatus } from '@petstore/core';
import type { DataSource } from 'typeorm';
import { dialectOf } from './dialect.js';
import { petStatements, type PetStatements, type PetTuple, type StatementObserver } from './driverStatements.js';
import { toSafeInteger } from './schemas/safeInteger.js';
import { translateDatabaseError } from './translateDatabaseError.js';

function toPet(row: PetTuple): Pet {
  return { id: toSafeInteger(row[0]), name: row[1], categoryId: toSafeInteger(row[2]), status: row[3] as PetStatus };
}

/**
 * PetRepository on a TypeORM DataSource (SQLite or PostgreSQL). The schema and connections are TypeORM's; the
 * three hot statements are prepared on its connection (driverStatements.ts says why) and mapped here from
 * positional rows.
 */
export class TypeOrmPetRepository implements PetRepository {
  /**
   * SQLite has one writer, which assigns ids and commits them in order (group commit keeps that: one transaction per
   * batch, ids ascending within it). PostgreSQL hands out sequence values before commit, and transactions can
   * commit out of order.
   */
  readonly pagesWithSuccessorNeverChange: boolean;
  private readonly statements: PetStatements;

  /** `statements` sees each SQLite pet statement run (the server's tracing passes one). */
  constructor(dataSource: DataSource, options: { statements?: StatementObserver } = {}) {
    this.pagesWithSuccessorNeverChange = dialectOf(dataSource) === 'sqlite';
    this.statements = petStatements(dataSource, options.statements);
  }

  async create(draft: PetDraft): Promise<Pet> {
    try {
      return { id: toSafeInteger(await this.statements.insert(draft)), ...draft };
    } catch (error) {
      translateDatabaseError(error);
    }
  }

  async findById(id: number): Promise<Pet | null> {
    let row: PetTuple | undefined;
    try {
      row = await this.statements.findById(id);
    } catch (error) {
      translateDatabaseError(error);
    }
    return row ? toPet(row) : null;
  }

  async list({ status, limit, after = 0 }: PetListRequest): Promise<PetPage> {
    let rows: PetTuple[];
    try {
      rows = await this.statements.list(status, after, limit + 1);
    } catch (error) {
      translateDatabaseError(error);
    }
    const pets = rows.slice(0, limit).map(toPet);
    return rows.length > limit ? { pets, next: pets[pets.length - 1]!.id } : { pets };
  }
}
