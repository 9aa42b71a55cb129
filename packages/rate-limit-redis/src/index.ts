export { RedisRateLimitStore } from './RedisRateLimitStore.js';
export {
  closeRedisClient,
  createRedisClient,
  whenReady,
  type RedisClient,
  type RedisNode,
  type RedisSecurity,
  type RedisTopology,
} from './createRedisClient.js';
