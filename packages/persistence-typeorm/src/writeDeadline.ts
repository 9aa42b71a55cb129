import type { DataSource } from 'typeorm';

/**
 * How far PostgreSQL's clock may be from ours, plus the time a reply takes to come back. A write carries a deadline
 * (our clock) that PostgreSQL compares with its own clock_timestamp() before it writes anything.
 */
const CLOCK_SKEW_MARGIN_MS = 1_000;

/**
 * The pg client's timeout for a statement timeout: a guarded write must start before its deadline (one statement
 * timeout after it was sent) and, once started, ends within the statement timeout; the client waits for both and the
 * margin, so when it gives up the write is known never to take effect, even if the server runs it later.
 */
export function clientTimeoutFor(statementTimeoutMs: number): number {
  return 2 * statementTimeoutMs + CLOCK_SKEW_MARGIN_MS;
}

/** Epoch milliseconds after which PostgreSQL must refuse to start a write sent now. */
export function writeDeadline(dataSource: DataSource): number {
  const extra = (dataSource.options as { extra?: { statement_timeout?: number } }).extra;
  return Date.now() + (extra?.statement_timeout ?? 5_000);
}

/** SQL that is true while PostgreSQL's own clock is before the deadline given (epoch ms) as parameter `p`. */
export const beforeDeadline = (p: string) => `clock_timestamp() < to_timestamp(${p}::float8 / 1000)`;
