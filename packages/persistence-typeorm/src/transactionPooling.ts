// PostgreSQL behind a transaction pooler (PgBouncer with `pool_mode = transaction`): each transaction may run on a
// different server connection, so nothing may be attached to a connection. The pooler refuses the startup parameters
// pg sends for the timeouts (`statement_timeout`, `idle_in_transaction_session_timeout`), and a `SET` would stay on a
// server connection that other clients get next. So the clients made here send no timeouts at start; every query
// they run outside a transaction block is preceded, in the same round trip and the same transaction, by a statement
// that sets both timeouts for that transaction alone (`set_config(..., true)`, which is `SET LOCAL`). A single
// statement gets them for itself; a block opened by `START TRANSACTION` keeps them until it ends.
//
// This builds on pg's Query class beyond its typings (the extended-protocol messages it sends, the messages it
// handles); transactionPooling.int.spec.ts fails if a pg upgrade changes them.
import type pg from 'pg';

/** The PostgreSQL timeouts pg would send at connection start, in milliseconds. */
type Timeouts = Pick<pg.ClientConfig, 'statement_timeout' | 'idle_in_transaction_session_timeout'>;

/** pg's connection, as Query uses it to send extended-protocol messages. */
interface Connection {
  parse(message: { text: string }): void;
  bind(message: object): void;
  execute(message: object): void;
}

/** What pg's Query does beyond @types/pg that this module overrides. */
interface QueryInternals {
  queryMode?: string;
  callback?: (error: Error | null, result?: unknown) => void;
  prepare(connection: Connection): void;
  handleDataRow(message: unknown): void;
  handleCommandComplete(message: unknown, connection: Connection): void;
}
type QueryClass = new (config: unknown, values?: unknown, callback?: unknown) => QueryInternals;

/** The statement that sets the timeouts for the rest of the transaction it runs in. */
function timeoutsStatement({ statement_timeout, idle_in_transaction_session_timeout }: Timeouts): string {
  // pg's own reading of these settings (a number, or false for none: 0 is PostgreSQL's "no timeout").
  const ms = (value: number | false | undefined) => String(Math.trunc(Number(value || 0)));
  return (
    `SELECT set_config('statement_timeout', '${ms(statement_timeout)}', true), ` +
    `set_config('idle_in_transaction_session_timeout', '${ms(idle_in_transaction_session_timeout)}', true)`
  );
}

/**
 * pg's Client class for a transaction pooler: it takes the same config as pg's Client (so a pool is configured the
 * same way in both modes) but applies the two timeouts per transaction instead of at connection start.
 */
export function clientWithTimeoutsPerTransaction(pgModule: typeof pg): typeof pg.Client {
  const Query = pgModule.Query as unknown as QueryClass;

  /**
   * A query always sent with the extended protocol, preceded by the timeouts' statement (whose answer it skips) unless
   * it runs inside a transaction block: the statement that opened the block set them until its end, and in a block
   * that failed any statement but its end (`ROLLBACK`) would fail too.
   */
  class QueryWithTimeouts extends Query {
    private awaitingTimeouts = false;

    constructor(
      private readonly timeouts: string,
      private readonly inTransactionBlock: () => boolean,
      config: unknown,
      values?: unknown,
      callback?: unknown,
    ) {
      super(config, values, callback);
      this.queryMode = 'extended';
    }

    override prepare(connection: Connection): void {
      if (!this.inTransactionBlock()) {
        connection.parse({ text: this.timeouts });
        connection.bind({});
        connection.execute({});
        this.awaitingTimeouts = true;
      }
      super.prepare(connection);
    }

    override handleDataRow(message: unknown): void {
      if (!this.awaitingTimeouts) super.handleDataRow(message);
    }

    override handleCommandComplete(message: unknown, connection: Connection): void {
      if (this.awaitingTimeouts) this.awaitingTimeouts = false;
      else super.handleCommandComplete(message, connection);
    }
  }

  class ClientWithTimeoutsPerTransaction extends pgModule.Client {
    /** Read by `timeoutsPerTransaction`: a pool with this Client sets no session state. */
    static readonly setsTimeoutsPerTransaction = true;

    constructor(config: pg.ClientConfig = {}) {
      const { statement_timeout, idle_in_transaction_session_timeout, ...startup } = config;
      super(startup);
      const timeouts = timeoutsStatement({ statement_timeout, idle_in_transaction_session_timeout });
      // Read when the query is sent, after the answer to the one before: 'T' in a block, 'E' in a failed one.
      const inTransactionBlock = () => ['T', 'E'].includes(this.getTransactionStatus() ?? 'I');
      const send = this.query.bind(this) as (query: unknown, values?: unknown, callback?: unknown) => unknown;
      this.query = ((queryConfig: unknown, values?: unknown, callback?: unknown) => {
        // Someone else's submittable (a cursor, a stream) goes as it is.
        if (typeof (queryConfig as { submit?: unknown } | null)?.submit === 'function') return send(queryConfig, values, callback);
        const query = new QueryWithTimeouts(timeouts, inTransactionBlock, queryConfig, values, callback);
        if (query.callback) return void send(query);
        return new Promise((resolve, reject) => {
          query.callback = (error, result) => (error ? reject(error) : resolve(result));
          send(query);
        });
      }) as typeof this.query;
    }
  }
  return ClientWithTimeoutsPerTransaction;
}

/** True when the DataSource's pool sets its timeouts per transaction: it is behind a transaction pooler. */
export function timeoutsPerTransaction(dataSource: { options: object }): boolean {
  const extra = (dataSource.options as { extra?: { Client?: { setsTimeoutsPerTransaction?: boolean } } }).extra;
  return extra?.Client?.setsTimeoutsPerTransaction === true;
}
