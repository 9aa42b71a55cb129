export { RedisRateLimitStore } from './RedisRateLimitStore.js';
export { createRedisClient, whenReady } from './createRedisClient.js';
export type { Redis as RedisClient } from 'ioredis';
