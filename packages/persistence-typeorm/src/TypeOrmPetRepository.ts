import type { ChangeTiming, Pet, PetChangeEvent, PetDraft, PetListRequest, PetPage, PetRepository } from '@petstore/core';
import type { DataSource } from 'typeorm';
import { petStatements, type PetStatements } from './driverStatements.js';
import type { StatementObserver } from './StatementObserver.js';
import { translateDatabaseError } from './translateDatabaseError.js';

export interface TypeOrmPetRepositoryOptions {
  /** Sees each SQLite pet statement run (the server's tracing passes one). */
  statements?: StatementObserver;
  /**
   * SQLite only: keep up to this many rows of the listings in memory and serve pages from them while nothing has
   * changed them (default 0: none). Sound only if, on this DataSource's connection, pets change through this
   * repository alone: its own changes and any other process's commits are seen, but a pet changed by SQL run on
   * the same connection (an embedder's query through TypeORM) is not.
   */
  keptListingRows?: number;
}

/**
 * PetRepository on a TypeORM DataSource (SQLite or PostgreSQL). The schema and connections are TypeORM's; the
 * hot statements are prepared on its connection (driverStatements.ts says why), which answer in pets; here their
 * failures become what core understands. Every statement is one autocommitted statement (or, for SQLite's group commit, resolves after its
 * transaction committed), and a read that starts after a change resolved sees it, on any process that shares the
 * database: it runs on the database, or (with `keptListingRows`) on rows kept only while no change has touched them.
 */
export class TypeOrmPetRepository implements PetRepository {
  private readonly statements: PetStatements;

  constructor(dataSource: DataSource, options: TypeOrmPetRepositoryOptions = {}) {
    this.statements = petStatements(dataSource, options.statements, options.keptListingRows);
  }

  async create(draft: PetDraft, events: readonly PetChangeEvent[]): Promise<Pet> {
    try {
      return await this.statements.insert(draft, events);
    } catch (error) {
      translateDatabaseError(error);
    }
  }

  async findById(id: number): Promise<Pet | null> {
    try {
      return (await this.statements.findById(id)) ?? null;
    } catch (error) {
      translateDatabaseError(error);
    }
  }

  async update(id: number, expectedVersion: number, next: PetDraft, timing: ChangeTiming, events: readonly PetChangeEvent[]): Promise<Pet | null> {
    try {
      return (await this.statements.update(id, expectedVersion, next, timing, events)) ?? null;
    } catch (error) {
      translateDatabaseError(error);
    }
  }

  /** Whether it keeps listing rows (`keptListingRows`, SQLite), and so tells a listing revision. */
  get keepsListingRows(): boolean {
    return this.statements.listingRevision !== undefined;
  }

  /**
   * With `keptListingRows` (SQLite): how many changes the kept rows have seen, a number that stays the same only
   * while no pet is created or changed, in this process or any other on the same file (SQLite's data_version), and
   * never comes back to an earlier value; undefined otherwise, or inside a transaction opened through TypeORM.
   */
  async listingRevision(): Promise<number | undefined> {
    try {
      return await this.statements.listingRevision?.();
    } catch (error) {
      translateDatabaseError(error);
    }
  }

  async list({ status, limit, after = 0 }: PetListRequest): Promise<PetPage> {
    try {
      return await this.statements.list(status, after, limit);
    } catch (error) {
      translateDatabaseError(error);
    }
  }
}
