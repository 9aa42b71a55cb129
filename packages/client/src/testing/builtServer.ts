// The built server and admin CLI for the client's end-to-end tests, from the project's test helpers.
import { fetchAllPages, type ServerProcess } from '@petstore/test-support';

export { issueUnlimitedKey, runNodeProcess, spawnServer, STOPPED_AT_ONCE, WITH_ADMIN_API, type ServerProcess } from '@petstore/test-support';

export const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

interface StoredPet {
  id: number;
  name: string;
}

/** Every pet the server has, following the `Link: rel="next"` pages (without the client under test). */
export const listAllPets = (server: ServerProcess, key: string) => fetchAllPages<StoredPet>(`${server.url}/pets?limit=100`, auth(key));
