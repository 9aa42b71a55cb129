export { redisServerBinary, startRedis, startRedisForTests, type RunningRedis } from './startRedis.js';
