// Helpers that need Jest's globals: import them only from test files (the main entry also runs outside Jest).
export { describeWithPostgres, describeWithPostgresAndRedis, describeWithRedis } from './describeWith.js';
