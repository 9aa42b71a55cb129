import { DomainError, ServiceUnavailableError } from '@petstore/core';

const TRANSIENT_SQLITE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|READONLY|FULL|NOTADB|PROTOCOL)/;
// PostgreSQL SQLSTATE classes: 08 connection, 53 insufficient resources, 57 operator intervention (shutdown,
// statement timeout), 58 system error; plus lock timeout, serialization failure and deadlock.
const TRANSIENT_POSTGRES = /^(08|53|57|58)|^(55P03|40001|40P01)$/;
const TRANSIENT_NETWORK = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);
const TRANSIENT_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connection error|not connected|Connection is not established|connection is not open/i;

function codeOf(error: unknown): string {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  return String(driverError?.code ?? code ?? '');
}

/** A duplicate primary key or unique value: SQLite's constraint codes, PostgreSQL's SQLSTATE 23505. */
export function isUniqueViolation(error: unknown): boolean {
  return /^SQLITE_CONSTRAINT_(PRIMARYKEY|UNIQUE)$|^23505$/.test(codeOf(error));
}

/**
 * Turns a failure of the database into what core understands: ServiceUnavailableError when the database is down,
 * unreachable, locked past the busy timeout or too slow; anything else is rethrown as is (a bug, not an outage).
 */
export function translateDatabaseError(error: unknown): never {
  if (DomainError.is(error)) throw error;
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : '';
  const name = error instanceof Error ? error.name : '';
  if (
    TRANSIENT_SQLITE.test(code) ||
    TRANSIENT_POSTGRES.test(code) ||
    TRANSIENT_NETWORK.has(code) ||
    TRANSIENT_MESSAGES.test(message) ||
    name === 'CannotExecuteNotConnectedError'
  ) {
    throw new ServiceUnavailableError('database', 5, { cause: error });
  }
  throw error;
}
