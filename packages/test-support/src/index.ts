export { freePort, postgresBinDir, startPostgres, startPostgresForTests, type RunningPostgres } from './startPostgres.js';
export { redisServerBinary, startRedis, startRedisForTests, type RunningRedis } from './startRedis.js';
