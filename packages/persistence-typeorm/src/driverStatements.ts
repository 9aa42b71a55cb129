// The pet statements on the raw driver (reached through driverConnections.ts), not through TypeORM's Repository.
//
// Why: the pet statements (insert, find by id, list a page, conditional update) run on every request, and through
// TypeORM each would cost a query runner and a keyed object per row, more than the query itself (on SQLite a one-row
// lookup is about 8 times faster prepared). They are prepared once, read positional rows that become pets in one
// place (petRows.ts, from core's PET_FIELDS), and SQLite's inserts are group-committed: sqlitePetStatements.ts and
// postgresPetStatements.ts, one per database, behind the one interface of PetStatements.ts.
import type { DataSource } from 'typeorm';
import { dialectOf } from './dialect.js';
import type { PetStatements } from './PetStatements.js';
import { postgresPetStatements } from './postgresPetStatements.js';
import { SQLITE_SQL, sqlitePetStatements } from './sqlitePetStatements.js';
import type { StatementObserver } from './StatementObserver.js';

export type { PetStatements } from './PetStatements.js';

/**
 * The pet statements for a DataSource, prepared on its connection the first time they run. Without an observer
 * they run as they are, with no indirection on the hot path. `keptListingRows` (SQLite only) keeps up to that many
 * rows of the listings in memory (ListingRuns), for as long as nothing changes them.
 */
export function petStatements(dataSource: DataSource, observer?: StatementObserver, keptListingRows = 0): PetStatements {
  if (dialectOf(dataSource) === 'postgres') return postgresPetStatements(dataSource);
  const statements = sqlitePetStatements(dataSource, keptListingRows);
  return observer ? observedStatements(statements, observer, SQLITE_SQL) : statements;
}

/** Each statement handed to the observer with its SQL text; an insert's covers the wait for its group commit. */
function observedStatements(statements: PetStatements, observer: StatementObserver, text: typeof SQLITE_SQL): PetStatements {
  return {
    insert: (draft, events) => observer.statement(text.insert, () => statements.insert(draft, events)),
    findById: (id) => observer.statement(text.findById, () => statements.findById(id)),
    list: (status, after, limit) =>
      observer.statement(status === undefined ? text.listAll : text.listByStatus, () => statements.list(status, after, limit)),
    update: (id, expectedVersion, next, timing, events) =>
      observer.statement(text.update, () => statements.update(id, expectedVersion, next, timing, events)),
    ...(statements.listingRevision && { listingRevision: statements.listingRevision }),
  };
}
