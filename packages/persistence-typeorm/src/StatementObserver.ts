/**
 * Sees every SQLite pet statement run, for tracing (`run` returns the statement's promise; return what it returns).
 * PostgreSQL needs none: its driver is instrumented where it is loaded (OpenTelemetry's pg instrumentation).
 * A file of its own: the published types must not reach driverStatements.ts, whose types name the drivers' own.
 */
export interface StatementObserver {
  statement<T>(sql: string, run: () => T): T;
}
