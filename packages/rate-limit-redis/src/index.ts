export { RedisRateLimitStore } from './RedisRateLimitStore.js';
export { createRedisClient, whenReady, type RedisClient, type RedisNode, type RedisTopology } from './createRedisClient.js';
