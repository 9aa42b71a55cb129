// The pet statements on PostgreSQL: named queries on TypeORM's pg pool (driverConnections.ts), each change and its
// events one statement, a turn's pages one statement (postgresPageReads.ts).
import { eventIdSuffix, PET_FIELD_NAMES, petField, petFieldsOf, ServiceUnavailableError, type Pet, type PetChangeEvent } from '@petstore/core';
import type { DataSource } from 'typeorm';
import { postgresPoolOf } from './driverConnections.js';
import { pageOf, petStatementSql, updateValues, type PetStatements } from './PetStatements.js';
import { pageReadsPerTurn, pageReadsSql, type NumberedPetRow } from './postgresPageReads.js';
import { BEFORE_COLUMNS, EVENT_COLUMNS, FIELD_COLUMNS, fieldValues, PET_COLUMNS, POSTGRES_TYPES, toPet, type PetTuple } from './petRows.js';
import { toSafeInteger } from './schemas/safeInteger.js';
import { timeoutsPerTransaction } from './transactionPooling.js';
import { beforeDeadline, writeDeadline } from './writeDeadline.js';

/**
 * Named (server-side prepared) queries on TypeORM's pg pool, returning positional rows; unnamed behind a transaction
 * pooler, where a statement prepared on one server connection is unknown on the next. The insert carries a
 * deadline that PostgreSQL checks on its own clock: started late (the server stalled with the insert queued), it
 * inserts nothing, so a create that timed out on the client (503) never appears later. Pages are read together, one
 * statement for the pages asked for in a turn of the event loop (postgresPageReads.ts).
 */
export function postgresPetStatements(dataSource: DataSource): PetStatements {
  const plain = petStatementSql((n) => `$${n}`);
  const n = FIELD_COLUMNS.length;
  const text = {
    ...plain,
    insert:
      `WITH "created" AS (INSERT INTO "pets" (${FIELD_COLUMNS.join(', ')}) SELECT ${FIELD_CASTS.map((cast, i) => `$${i + 1}::${cast}`).join(', ')} ` +
      `WHERE ${beforeDeadline(`$${n + 1}`)} RETURNING ${PET_COLUMNS}, ${NOW} AS "at"), ` +
      `"recorded" AS (INSERT INTO "pet_events" (${EVENT_COLUMNS}) ${eventsFrom(n + 2)}, "created") ` +
      'SELECT "id" FROM "created"',
    // The change first holds the pet's row ("locked", FOR UPDATE) and only then reads the clock ("stamp"): a change
    // that waited for the row (another writer held it) is dated after the wait, as it commits, so a request that
    // arrived while it waited counts as overtaken. The clock is read in "stamp" because an expression of the locking
    // SELECT itself is evaluated before its wait.
    update:
      `WITH "locked" AS (SELECT "id" FROM "pets" WHERE "id" = $${n + 3} AND "version" = $${n + 4} FOR UPDATE), ` +
      `"stamp" AS MATERIALIZED (SELECT GREATEST($${n + 2}::bigint, ${NOW}) AS "at" FROM "locked"), ` +
      `"changed" AS (UPDATE "pets" SET ${FIELD_COLUMNS.map((column, i) => `${column} = $${i + 1}`).join(', ')}, "version" = "version" + 1, ` +
      `"status_changed_at_ms" = CASE WHEN "status" = $${n + 1} THEN "status_changed_at_ms" ELSE "stamp"."at" END FROM "stamp" ` +
      `WHERE "id" = $${n + 3} AND "version" = $${n + 4} AND ("status" = $${n + 5} OR "status_changed_at_ms" <= $${n + 6}) ` +
      `AND ${beforeDeadline(`$${n + 7}`)} RETURNING ${PET_COLUMNS}, "at"), ` +
      `"recorded" AS (INSERT INTO "pet_events" (${EVENT_COLUMNS}) ${eventsFrom(n + 8)}, "changed") ` +
      `SELECT ${PET_COLUMNS} FROM "changed"`,
    listPages: pageReadsSql(PET_COLUMNS),
  };
  const named = !timeoutsPerTransaction(dataSource);
  const rows = async <Row extends unknown[] = PetTuple>(name: string, query: string, values: unknown[]) =>
    (await postgresPoolOf(dataSource).query<Row>({ name: named ? `petstore_${name}` : undefined, text: query, values, rowMode: 'array' })).rows;
  const readPage = pageReadsPerTurn((values) => rows<NumberedPetRow>('list_pages', text.listPages, values));
  return {
    insert: async (draft, events) => {
      const values = [...fieldValues(draft), writeDeadline(dataSource), ...eventValues(events)];
      const [row] = await rows<[id: string]>('insert_with_events', text.insert, values);
      if (!row)
        throw new ServiceUnavailableError('database', 5, {
          cause: new Error('PostgreSQL started the insert after its deadline: nothing was stored'),
        });
      return { id: toSafeInteger(row[0]), ...petFieldsOf(draft), version: 1 } as Pet;
    },
    findById: async (id) => {
      const [row] = await rows('find_by_id', text.findById, [id]);
      return row && toPet(row);
    },
    list: async (status, after, limit) => pageOf(await readPage(status, after, limit + 1), limit),
    update: async (id, expectedVersion, next, timing, events) => {
      const deadline = writeDeadline(dataSource);
      const values = [...updateValues(id, expectedVersion, next, timing), deadline, ...eventValues(events)];
      const [row] = await rows('update_with_events', text.update, values);
      // No row: another change came first, or PostgreSQL started the update after its deadline and changed nothing.
      if (!row && Date.now() >= deadline)
        throw new ServiceUnavailableError('database', 5, {
          cause: new Error('PostgreSQL may have started the update after its deadline: nothing was changed'),
        });
      return row && toPet(row);
    },
  };
}

const NOW = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/** The PostgreSQL type of each field's parameter, in PET_FIELDS's order. */
const FIELD_CASTS = PET_FIELD_NAMES.map((name) => POSTGRES_TYPES[petField(name).kind]);

/**
 * The rows of a change's events, for the change's own statement (a data-modifying WITH: one round trip and one
 * transaction): they come as arrays from parameter `first` on (eventValues), and each is dated by PostgreSQL's
 * clock as the change writes ("at"), its id made of that date and a suffix from eventIdSuffix.
 */
function eventsFrom(first: number): string {
  const arrays = ['text', 'text', ...FIELD_CASTS].map((cast, i) => `$${first + i}::${cast}[]`).join(', ');
  return (
    `SELECT 'evt_' || lpad(to_hex("at"), 12, '0') || "suffix", "type", "at", ${PET_COLUMNS}, ${BEFORE_COLUMNS.join(', ')} ` +
    `FROM unnest(${arrays}) AS "e"("suffix", "type", ${BEFORE_COLUMNS.join(', ')})`
  );
}

/** Events as the arrays the PostgreSQL statements unnest: id suffixes, types, then each field's values before. */
const eventValues = (events: readonly PetChangeEvent[]) => [
  events.map(() => eventIdSuffix()),
  events.map((event) => event.type),
  ...PET_FIELD_NAMES.map((name) => events.map((event) => event.before?.[name] ?? null)),
];
