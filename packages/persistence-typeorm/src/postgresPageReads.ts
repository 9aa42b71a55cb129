import { PET_STATUSES, type PetStatus } from '@petstore/core';
import DataLoader from 'dataloader';
import type { PetTuple } from './petRows.js';

/** One page to read: the listing (a status, or every pet), the id the page starts after, and how many rows. */
interface PageRead {
  status: PetStatus | undefined;
  after: number;
  count: number;
}

/** A row of `pageReadsSql`: the position of the read it belongs to, then the pet. */
export type NumberedPetRow = [read: number, ...pet: PetTuple];

/** Reads in one statement at most: 100 pages of up to 101 rows. */
const MAX_READS_PER_STATEMENT = 100;

/**
 * One statement that reads many pages: read `i` is element `i` of four arrays ($1 positions, $2 statuses or null,
 * $3 the id each page starts after, $4 row counts), answered by a keyset scan of its own (LATERAL), exactly as the
 * statement for one page would read it. Each status has a branch of its own with the status written in the text, so
 * PostgreSQL plans it from that status's statistics, as it plans a page of that status alone (a rare status through
 * the (status, id) index), and the same plan is right for every execution. The branches that are not a read's are
 * skipped before they scan anything (a one-time filter on the read's status).
 */
export function pageReadsSql(columns: string): string {
  const page = (where: string) => `(SELECT ${columns} FROM "pets" WHERE ${where} AND "id" > r."after" ORDER BY "id" LIMIT r."count")`;
  const branches = [page('r."status" IS NULL'), ...PET_STATUSES.map((status) => page(`r."status" = '${status}' AND "status" = '${status}'`))];
  return (
    `SELECT r."i", p.* FROM unnest($1::int[], $2::text[], $3::bigint[], $4::int[]) AS r("i", "status", "after", "count") ` +
    `CROSS JOIN LATERAL (${branches.join(' UNION ALL ')}) AS p`
  );
}

/**
 * Page reads on PostgreSQL, gathered over a turn of the event loop and sent as one statement (`pageReadsSql`) in the
 * turn's check phase (`setImmediate`), after its I/O callbacks. Under load one turn holds the list requests of many
 * connections, and one pool checkout, round trip and execution for all of them costs the server far less than one
 * each. A read waits for nothing but the rest of its turn, and it is sent after it was asked for, so it sees every
 * change committed before. The reads of one statement succeed or fail together. `send` runs the statement.
 */
export function pageReadsPerTurn(send: (values: unknown[]) => Promise<NumberedPetRow[]>) {
  const pages = new DataLoader<PageRead, PetTuple[]>(
    async (reads) => {
      const rows = await send([
        reads.map((_, i) => i),
        reads.map(({ status }) => status ?? null),
        reads.map(({ after }) => after),
        reads.map(({ count }) => count),
      ]);
      const answers = reads.map((): PetTuple[] => []);
      for (const [read, ...pet] of rows) answers[read]!.push(pet);
      // Each branch is an index scan in id order, but without ORDER BY (which would sort every statement's rows)
      // SQL promises no order: put each page in order, one comparison a row when it already is.
      for (const answer of answers) answer.sort((a, b) => Number(a[0]) - Number(b[0]));
      return answers;
    },
    { cache: false, maxBatchSize: MAX_READS_PER_STATEMENT, batchScheduleFn: (sendBatch) => setImmediate(sendBatch) },
  );
  return (status: PetStatus | undefined, after: number, count: number): Promise<PetTuple[]> => pages.load({ status, after, count });
}
