// Helpers that need Jest's globals: import them only from test files (the main entry also runs outside Jest).
export {
  describeWithPgBouncer,
  describeWithPostgres,
  describeWithPostgresAndRedis,
  describeWithRedis,
  type PostgresBehindPgBouncer,
} from './describeWith.js';
