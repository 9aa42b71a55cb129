import type { DataSource } from 'typeorm';

/** The two databases the pet store runs on. */
export type Dialect = 'sqlite' | 'postgres';

/** The kind of database behind a DataSource. */
export function dialectOf(dataSource: DataSource): Dialect {
  return dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
}
