// The built server and admin CLI for the client's end-to-end tests, from the project's test helpers.
import { fetchAllPages, type ServerProcess } from '@petstore/test-support';

export { issueUnlimitedKey, runCli, runNodeProcess, spawnServer, type ServerProcess } from '@petstore/test-support';

export const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

interface StoredPet {
  id: number;
  name: string;
}

/** Every pet the server has, following the `Link: rel="next"` pages (without the client under test). */
export const listAllPets = (server: ServerProcess, key: string) => fetchAllPages<StoredPet>(`${server.url}/pets?limit=100`, auth(key));

/**
 * Waits until at least `seconds` remain in the current UTC minute. Only the test that must make two processes
 * contest one minute's quota uses it (the one test allowed to depend on a real minute window).
 */
export async function awayFromMinuteEnd(seconds: number): Promise<void> {
  const left = 60 - ((Date.now() / 1000) % 60);
  if (left < seconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 50));
}
