// The pet statements' interface and text, the same on both databases (sqlitePetStatements.ts, postgresPetStatements.ts).
import type { ChangeTiming, Pet, PetChangeEvent, PetDraft, PetPage, PetStatus } from '@petstore/core';
import { EVENT_COLUMNS, FIELD_COLUMNS, fieldValues, PET_COLUMNS, toPet, type PetTuple } from './petRows.js';

/** The pet statements, the same on both databases, in the PetRepository's terms (it translates their errors). */
export interface PetStatements {
  /** Inserts the pet and its events (see PetRepository.create). */
  insert(draft: PetDraft, events: readonly PetChangeEvent[]): Promise<Pet>;
  findById(id: number): Promise<Pet | undefined>;
  /** A page of at most `limit` pets (see PetRepository.list). */
  list(status: PetStatus | undefined, after: number, limit: number): Promise<PetPage>;
  /** The pet after the change, or undefined when refused (see PetRepository.update) or there is no such pet. */
  update(id: number, expectedVersion: number, next: PetDraft, timing: ChangeTiming, events: readonly PetChangeEvent[]): Promise<Pet | undefined>;
  /** Only while listing rows are kept (SQLite): see PetRepository.listingRevision. */
  listingRevision?(): Promise<number | undefined>;
}

/** A pet to insert and the events to record with it. */
export type Create = { draft: PetDraft; events: readonly PetChangeEvent[] };

/** A page of at most `limit` pets, from up to `limit + 1` rows: one more tells that a next page exists. */
export function pageOf(rows: readonly PetTuple[], limit: number): PetPage {
  const pets = rows.slice(0, limit).map(toPet);
  return rows.length > limit ? { pets, next: pets[pets.length - 1]!.id } : { pets };
}

/**
 * The statements' text, with `p(n)` for the n-th parameter and `limit(n)` for a parameter that is a page's LIMIT.
 * SQLite (measured on 3.53, bundled by better-sqlite3 12) compiles a bare bound LIMIT into the statement as its value, so it
 * re-prepares the statement whenever that parameter is bound again, which is every read: about a sixth of a page's
 * read (docs/performance.md). `CAST(? AS INTEGER)` is an expression it evaluates at run time instead.
 */
export function petStatementSql(p: (position: number) => string, limit: (position: number) => string = p) {
  const n = FIELD_COLUMNS.length;
  return {
    insert: `INSERT INTO "pets" (${FIELD_COLUMNS.join(', ')}) VALUES (${FIELD_COLUMNS.map((_, i) => p(i + 1)).join(', ')}) RETURNING "id"`,
    findById: `SELECT ${PET_COLUMNS} FROM "pets" WHERE "id" = ${p(1)}`,
    // Keyset pagination: one extra row tells whether a next page exists. Both are index range scans, so a page
    // costs the same at any depth and any table size.
    listAll: `SELECT ${PET_COLUMNS} FROM "pets" WHERE "id" > ${p(1)} ORDER BY "id" LIMIT ${limit(2)}`,
    listByStatus: `SELECT ${PET_COLUMNS} FROM "pets" WHERE "status" = ${p(1)} AND "id" > ${p(2)} ORDER BY "id" LIMIT ${limit(3)}`,
    // Compare-and-set on the version: of concurrent updates from one version, the database lets exactly one through.
    // A status change is refused too when the status changed after the request arrived; it records when it did.
    update:
      `UPDATE "pets" SET ${setFields(p)}, "version" = "version" + 1, ` +
      `"status_changed_at_ms" = CASE WHEN "status" = ${p(n + 1)} THEN "status_changed_at_ms" ELSE ${p(n + 2)} END ` +
      `WHERE "id" = ${p(n + 3)} AND "version" = ${p(n + 4)} AND ("status" = ${p(n + 5)} OR "status_changed_at_ms" <= ${p(n + 6)}) ` +
      `RETURNING ${PET_COLUMNS}`,
    // The event of a change, written in the change's transaction (the outbox the webhook deliveries read).
    recordEvent: `INSERT INTO "pet_events" (${EVENT_COLUMNS}) VALUES (${EVENT_COLUMNS.split(', ')
      .map((_, i) => p(i + 1))
      .join(', ')})`,
  };
}

/** Each field's column set to its parameter, the first n parameters in PET_FIELDS's order. */
const setFields = (p: (position: number) => string) => FIELD_COLUMNS.map((column, i) => `${column} = ${p(i + 1)}`).join(', ');

/** The update's parameters, in the order of its text: the fields, then the status and the timing's, the pet's. */
export const updateValues = (id: number, expectedVersion: number, next: PetDraft, { at, requestedAt }: ChangeTiming) => [
  ...fieldValues(next),
  next.status,
  at,
  id,
  expectedVersion,
  next.status,
  requestedAt,
];
