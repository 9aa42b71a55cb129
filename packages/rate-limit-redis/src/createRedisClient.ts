import { Redis } from 'ioredis';
import { DEFAULT_COMMAND_TIMEOUT_MS } from './commandDeadline.js';

/**
 * An ioredis client tuned to fail fast rather than queue: no offline queue, a 2 s command timeout (1 s for Redis to
 * start a rate-limit script, see commandDeadline.ts, plus the clock skew margin), one attempt per command. It reconnects by itself in the background (backoff up to 2 s), so service resumes when Redis returns.
 */
export function createRedisClient(url: string, onError: (error: Error) => void = () => undefined): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: DEFAULT_COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redis.on('error', onError);
  return redis;
}

/** Resolves true once the client is connected, false if that takes longer than `timeoutMs`. */
export function whenReady(redis: Redis, timeoutMs = 2_000): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, timeoutMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}
