export { betterSqlite3 } from './betterSqlite3.js';
export {
  createDataSource,
  DATABASE_POOL_MODES,
  SQLITE_SYNCHRONOUS_MODES,
  type DatabasePoolMode,
  type DataSourceSettings,
  type SqliteSynchronous,
} from './createDataSource.js';
export { dialectOf, type Dialect } from './dialect.js';
export type { DataSource } from 'typeorm';
export { DATABASE_URL_FORMS, parseDatabaseUrl, redact, type DatabaseTarget } from './databaseUrl.js';
export { migrate, pingDatabase } from './migrate.js';
export { TypeOrmPetRepository, type TypeOrmPetRepositoryOptions } from './TypeOrmPetRepository.js';
export type { StatementObserver } from './StatementObserver.js';
export { TypeOrmEventLog } from './TypeOrmEventLog.js';
export { TypeOrmWebhookStore } from './TypeOrmWebhookStore.js';
export { TypeOrmWebhookHistory } from './TypeOrmWebhookHistory.js';
export { TypeOrmKeyStore } from './TypeOrmKeyStore.js';
export { TypeOrmIdempotencyStore } from './TypeOrmIdempotencyStore.js';
export { TypeOrmAuditLog } from './TypeOrmAuditLog.js';
export { TypeOrmKeyUsageStore } from './TypeOrmKeyUsageStore.js';
export { TypeOrmBanStore } from './TypeOrmBanStore.js';
export { typeOrmPorts, type TypeOrmPorts } from './typeOrmPorts.js';
export { translateDatabaseError } from './translateDatabaseError.js';
export { migrations } from './migrations/index.js';
export { petstoreEntities } from './schemas/index.js';
