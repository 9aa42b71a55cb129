import type { ChangeTiming, Pet, PetDraft, PetListRequest, PetPage, PetRepository, PetStatus } from '@petstore/core';
import type { DataSource } from 'typeorm';
import { petStatements, type PetStatements, type PetTuple } from './driverStatements.js';
import type { StatementObserver } from './StatementObserver.js';
import { toSafeInteger } from './schemas/safeInteger.js';
import { translateDatabaseError } from './translateDatabaseError.js';

function toPet(row: PetTuple): Pet {
  return { id: toSafeInteger(row[0]), name: row[1], categoryId: toSafeInteger(row[2]), status: row[3] as PetStatus, version: row[4] };
}

/**
 * PetRepository on a TypeORM DataSource (SQLite or PostgreSQL). The schema and connections are TypeORM's; the
 * hot statements are prepared on its connection (driverStatements.ts says why) and mapped here from positional
 * rows. Every statement is one autocommitted statement (or, for SQLite's group commit, resolves after its
 * transaction committed), and reads run on the database each time: a read that starts after a change resolved
 * sees it, on any process that shares the database.
 */
export class TypeOrmPetRepository implements PetRepository {
  private readonly statements: PetStatements;

  /** `statements` sees each SQLite pet statement run (the server's tracing passes one). */
  constructor(dataSource: DataSource, options: { statements?: StatementObserver } = {}) {
    this.statements = petStatements(dataSource, options.statements);
  }

  async create(draft: PetDraft): Promise<Pet> {
    try {
      return { id: toSafeInteger(await this.statements.insert(draft)), ...draft, version: 1 };
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

  async update(id: number, expectedVersion: number, next: PetDraft, timing: ChangeTiming): Promise<Pet | null> {
    let row: PetTuple | undefined;
    try {
      row = await this.statements.update(id, expectedVersion, next, timing);
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
