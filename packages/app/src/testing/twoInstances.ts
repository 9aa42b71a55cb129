import { afterAll, beforeAll } from '@jest/globals';
import { spawnServer, STOPPED_AT_ONCE, type ServerProcess } from '@petstore/test-support';

/** Two server processes behind one load balancer, and the environment they were started with. */
export interface TwoInstances {
  a: ServerProcess;
  b: ServerProcess;
  env: Record<string, string>;
}

/**
 * Starts two instances sharing the stores `env` names before the enclosing describe's tests, and stops them after.
 * They share one public base URL (ETags and links depend on it), run in production mode, and stop at once.
 */
export function twoInstances(env: () => Record<string, string>): TwoInstances {
  const instances = {} as TwoInstances;
  beforeAll(async () => {
    instances.env = { ...STOPPED_AT_ONCE, NODE_ENV: 'production', PUBLIC_BASE_URL: 'http://petstore.test/v1', ...env() };
    // Started together: the advisory lock lets one migrate while the other waits.
    [instances.a, instances.b] = await Promise.all([spawnServer(instances.env), spawnServer(instances.env)]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([instances.a?.stop(), instances.b?.stop()]);
  }, 30_000);
  return instances;
}
