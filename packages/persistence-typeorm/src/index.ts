export { createDataSource, dialectOf, type DataSourceSettings } from './createDataSource.js';
export type { DataSource } from 'typeorm';
export { DATABASE_URL_FORMS, parseDatabaseUrl, redact, type DatabaseTarget } from './databaseUrl.js';
export { migrate, pingDatabase } from './migrate.js';
export { TypeOrmPetRepository } from './TypeOrmPetRepository.js';
export { TypeOrmKeyStore } from './TypeOrmKeyStore.js';
export { TypeOrmIdempotencyStore } from './TypeOrmIdempotencyStore.js';
export { translateDatabaseError } from './translateDatabaseError.js';
export { migrations } from './migrations/index.js';
