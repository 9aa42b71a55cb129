import type { Pet, PetDraft, PetListRequest, PetPage, PetRepository, PetStatus } from '@petstore/core';
import type { DataSource } from 'typeorm';
import { dialectOf } from './createDataSource.js';
import { toSafeInteger } from './schemas/safeInteger.js';
import type { PetRow } from './schemas/PetSchema.js';
import { translateDatabaseError } from './translateDatabaseError.js';

type Placeholder = (position: number) => string;

function statementsFor(p: Placeholder) {
  const columns = '"id", "name", "category_id", "status"';
  return {
    insert: `INSERT INTO "pets" ("name", "category_id", "status") VALUES (${p(1)}, ${p(2)}, ${p(3)}) RETURNING "id"`,
    findById: `SELECT ${columns} FROM "pets" WHERE "id" = ${p(1)}`,
    // Keyset pagination: one extra row tells whether a next page exists. Both are index range scans, so a page
    // costs the same at any depth and any table size.
    listAll: `SELECT ${columns} FROM "pets" WHERE "id" > ${p(1)} ORDER BY "id" LIMIT ${p(2)}`,
    listByStatus: `SELECT ${columns} FROM "pets" WHERE "status" = ${p(1)} AND "id" > ${p(2)} ORDER BY "id" LIMIT ${p(3)}`,
  };
}

export function toPet(row: PetRow): Pet {
  return { id: toSafeInteger(row.id), name: row.name, categoryId: toSafeInteger(row.category_id), status: row.status as PetStatus };
}

/**
 * PetRepository on TypeORM (SQLite or PostgreSQL). The statements are fixed SQL run through the DataSource,
 * which caches prepared statements, and rows are mapped by hand: entity hydration would triple the cost of a page.
 */
export class TypeOrmPetRepository implements PetRepository {
  private readonly sql: ReturnType<typeof statementsFor>;

  constructor(private readonly dataSource: DataSource) {
    this.sql = statementsFor(dialectOf(dataSource) === 'postgres' ? (n) => `$${n}` : () => '?');
  }

  async create(draft: PetDraft): Promise<Pet> {
    const rows = await this.query<{ id: number | string }>(this.sql.insert, [draft.name, draft.categoryId, draft.status]);
    return { id: toSafeInteger(rows[0]!.id), ...draft };
  }

  async findById(id: number): Promise<Pet | null> {
    const rows = await this.query<PetRow>(this.sql.findById, [id]);
    return rows[0] ? toPet(rows[0]) : null;
  }

  async list({ status, limit, after = 0 }: PetListRequest): Promise<PetPage> {
    const rows =
      status === undefined
        ? await this.query<PetRow>(this.sql.listAll, [after, limit + 1])
        : await this.query<PetRow>(this.sql.listByStatus, [status, after, limit + 1]);
    const pets = rows.slice(0, limit).map(toPet);
    return rows.length > limit ? { pets, next: pets[pets.length - 1]!.id } : { pets };
  }

  private async query<Row>(sql: string, parameters: unknown[]): Promise<Row[]> {
    try {
      return (await this.dataSource.query(sql, parameters)) as Row[];
    } catch (error) {
      translateDatabaseError(error);
    }
  }
}
