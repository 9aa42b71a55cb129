import type { DataSource } from 'typeorm';

/** The kind of database behind a DataSource. */
export function dialectOf(dataSource: DataSource): 'sqlite' | 'postgres' {
  return dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite';
}
