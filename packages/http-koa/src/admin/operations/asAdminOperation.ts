import type { Clock } from '@petstore/core';
import type { AdminOperation, PetsOperation } from '../../operations/Operation.js';

/** Who an animal's change made through the admin API is recorded as (idempotency scope, access log's `keyId`). */
const ADMIN_ACTOR = 'admin-api';

/**
 * One of the `/v1` animal operations, admitted with the admin token instead of an API key: same path, input,
 * rules and answers, no quota and no scope, never deprecated. The operator console changes animals through these.
 */
export function asAdminOperation(operation: PetsOperation, clock: Pick<Clock, 'now'>, description: string): AdminOperation {
  // Neither the scope nor the deprecation of the /v1 operation apply to the admin one.
  const { scope: _scope, deprecated: _deprecated, run, ...declared } = operation;
  return {
    ...declared,
    admission: 'admin-token',
    // Gone is the answer of a deprecated operation after its sunset.
    errors: declared.errors.filter((code) => code !== 'gone'),
    description,
    run(ctx, request) {
      // What the /v1 interface's admission sets: the instant a write is judged at, and the idempotency scope.
      if (operation.requestBody) ctx.state['receivedAt'] = clock.now();
      ctx.state['keyId'] = ADMIN_ACTOR;
      return run(ctx, request);
    },
  };
}
