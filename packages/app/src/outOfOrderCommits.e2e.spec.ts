import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { issueUnlimitedKey, nextLink, spawnServer, STOPPED_AT_ONCE, WITH_ADMIN_API, type ServerProcess } from '@petstore/test-support';
import { describeWithPostgres } from '@petstore/test-support/jest';
import pg from 'pg';
import { auth, postPet, type StoredPet } from './testing/api.js';

// On PostgreSQL a lower id can commit after a higher one is visible, so a page that already had a successor can
// still gain a pet. The server may share a read in flight between identical requests, but must never serve such a
// page from memory: the gap has to close on the first read after the commit, as it would without any cache.
describeWithPostgres('PostgreSQL: a pet whose id commits after higher ids', (postgres) => {
  let server: ServerProcess;
  let key: string;
  let url: string;

  beforeAll(async () => {
    url = postgres().url;
    server = await spawnServer({ ...STOPPED_AT_ONCE, ...WITH_ADMIN_API, DATABASE_URL: url, NODE_ENV: 'production' });
    key = await issueUnlimitedKey(server);
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`, { headers: auth(key) });
    expect(response.status).toBe(200);
    return { ids: ((await response.json()) as StoredPet[]).map((pet) => pet.id), link: nextLink(response.headers.get('link')) };
  };
  const create = async (name: string) => {
    const response = await postPet(server, key, name);
    expect(response.status).toBe(201);
    return ((await response.json()) as StoredPet).id;
  };

  it('appears inside a full page on the first read after it commits', async () => {
    for (const name of ['One', 'Two', 'Three']) await create(name);
    // A transaction of its own holds the next id, uncommitted, while higher ids commit through the API.
    const held = new pg.Client({ connectionString: url });
    await held.connect();
    await held.query('BEGIN');
    const late = Number(
      (await held.query<{ id: string }>(`INSERT INTO "pets" ("name", "category_id", "status") VALUES ('Late', 1, 'available') RETURNING "id"`))
        .rows[0]!.id,
    );
    const [higher, highest] = [await create('Higher'), await create('Highest')];
    expect(late).toBeLessThan(higher);

    const first = await get('/pets?limit=3');
    expect(first.ids).toHaveLength(3);
    const secondPage = `/pets?${new URL(first.link!).searchParams.toString().replace('limit=3', 'limit=1')}`;
    // Read the full page [higher] (highest follows) many times, together and in turn: what a cache would keep.
    const reads = await Promise.all(Array.from({ length: 10 }, () => get(secondPage)));
    for (const read of [...reads, await get(secondPage), await get(secondPage)]) {
      expect(read.ids).toEqual([higher]);
      expect(read.link).not.toBeNull();
    }

    await held.query('COMMIT');
    await held.end();
    expect((await get(secondPage)).ids).toEqual([late]);
    expect((await get('/pets?limit=10')).ids.slice(3)).toEqual([late, higher, highest]);
  }, 60_000);
});
