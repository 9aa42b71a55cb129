import { DEFAULT_USAGE_QUERIES_PER_MINUTE, type PetStore, type RateLimitUsage } from '@petstore/core';
import { setRateLimitHeaders } from '../rateLimitHeaders.js';
import { RateLimitUsageSchema } from '../openapi/schemas.js';
import { serializerFor } from '../openapi/serializers.js';
import { defineOperation, type PetsOperation } from './Operation.js';
import { JSON_CONTENT_TYPE } from '../jsonContentType.js';

/** `GET /rate_limit`: the calling key's quota, without spending any of it. */
export function getRateLimit(store: Pick<PetStore, 'getRateLimitUsage' | 'clock'>): PetsOperation {
  const serializeUsage = serializerFor<RateLimitUsage>(RateLimitUsageSchema);
  return defineOperation({
    operationId: 'getRateLimit',
    method: 'GET',
    path: '/rate_limit',
    admission: 'usage-query',
    tag: 'rate limits',
    summary: "The calling key's quota",
    description:
      "Like GitHub's `GET /rate_limit`: the key's plan, usage per window and ban. Not counted against the key's quota " +
      "and answered while the key is rate limited or banned; the rate-limit headers show the key's quota as it stands. " +
      `Queries are bounded per key in a bucket of their own (${DEFAULT_USAGE_QUERIES_PER_MINUTE} a minute by default): ` +
      'beyond it, 429 with headers describing that bucket.',
    responses: [{ status: 200, description: 'The usage.', body: RateLimitUsageSchema }],
    errors: [],
    input: () => undefined,
    async handle(ctx) {
      const usage = await store.getRateLimitUsage.execute(String(ctx.state['keyId']));
      setRateLimitHeaders(ctx, usage.state, store.clock.now().getTime());
      ctx.set('Content-Type', JSON_CONTENT_TYPE);
      ctx.body = serializeUsage(usage);
    },
  });
}
