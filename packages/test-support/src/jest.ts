// Helpers that need Jest's globals: import them only from test files (the main entry also runs outside Jest).
export { clientForSuite, type SuiteClient } from './clientForSuite.js';
export {
  describeWithEachRedisTopology,
  describeWithPgBouncer,
  describeWithPgBouncerAndRedis,
  describeWithPostgres,
  describeWithPostgresAndRedis,
  describeWithRedis,
  describeWithRedisCluster,
  describeWithRedisSentinel,
  type PostgresBehindPgBouncer,
} from './describeWith.js';
export type { RedisPasswords, RunningRedisSentinel, RunningRedisTopology, RunningReplicatedRedis } from './redisTopologies.js';
