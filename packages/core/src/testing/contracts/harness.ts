import { afterAll, afterEach, beforeAll, beforeEach } from '@jest/globals';

/** What a contract suite opens: the adapter under test, and how to release it. */
export interface Closable {
  close?(): Promise<void>;
}

/**
 * Opens a harness before each test of the enclosing describe (`'each'`), or once for all of them (`'all'`, when
 * the tests cannot interfere), closes it after, and returns its getter.
 */
export function openHarness<H extends Closable>(open: () => Promise<H>, scope: 'each' | 'all'): () => H {
  let harness: H | undefined;
  (scope === 'each' ? beforeEach : beforeAll)(async () => {
    harness = await open();
  });
  (scope === 'each' ? afterEach : afterAll)(async () => {
    await harness?.close?.();
  });
  return () => harness!;
}
