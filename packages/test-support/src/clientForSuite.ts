import { afterAll, beforeAll, expect } from '@jest/globals';

/** How a suite opens a client, knows it is connected, and closes it. */
export interface SuiteClient<C> {
  open(): C;
  /** True once connected; false when that takes too long. */
  ready(client: C): Promise<boolean>;
  close(client: C): Promise<void>;
}

/**
 * A client opened before the suite's tests (which fail when it does not connect) and closed after them, whatever
 * happened: its getter, for the tests.
 */
export function clientForSuite<C>({ open, ready, close }: SuiteClient<C>): () => C {
  let client: C | undefined;
  beforeAll(async () => {
    client = open();
    expect(await ready(client)).toBe(true);
  }, 30_000);
  afterAll(async () => {
    if (client !== undefined) await close(client);
  });
  return () => {
    if (client === undefined) throw new Error('the suite client is opened before the tests: use it inside them');
    return client;
  };
}
