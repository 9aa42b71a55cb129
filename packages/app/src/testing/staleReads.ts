import type { ServerProcess } from '@petstore/test-support';
import { auth, type StoredPet } from './api.js';

/** PATCH /v1/pets/{id} with a JSON Merge Patch. */
export function patchPet(server: ServerProcess, key: string, id: number, patch: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}/pets/${id}`, {
    method: 'PATCH',
    headers: { ...auth(key), 'Content-Type': 'application/merge-patch+json', ...headers },
    body: JSON.stringify(patch),
  });
}

export interface StaleReadCount {
  transitions: number;
  /** Reads, started after a change's 200 arrived, that showed the state before it (or another wrong answer). */
  stale: string[];
}

const nextOf = (status: string) => (status === 'available' ? 'pending' : 'available');

/**
 * `rounds` times (on a database of at most 100 pets): a pet among `pets` moves between available and pending on `writer(round)`; once its 200 arrived,
 * `reader(round)` is asked for the pet, the page of its new status and the page of its old one (with the tag that
 * page had before the change, so a 304 would hide the change), and a page taken with a cursor from before.
 * Whatever shows the old state is counted as stale.
 */
export async function countStaleReads(
  key: string,
  pets: readonly StoredPet[],
  rounds: number,
  writer: (round: number) => ServerProcess,
  reader: (round: number) => ServerProcess,
): Promise<StaleReadCount> {
  // Every pet fits in one page of 100, so the pages read below hold every pet of their status.
  const everything = await fetch(`${reader(0).url}/pets?limit=100`, { headers: auth(key) });
  if (everything.headers.get('link') !== null) throw new Error('countStaleReads needs at most 100 pets in the database');
  const stale: string[] = [];
  const status = new Map(pets.map((pet) => [pet.id, pet.status]));
  const get = (server: ServerProcess, path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { headers: { ...auth(key), ...headers } });
  let transitions = 0;
  for (let round = 0; round < rounds; round++) {
    const pet = pets[round % pets.length]!;
    const from = status.get(pet.id)!;
    const to = nextOf(from);
    const read = reader(round);
    const oldPagePath = `/pets?status=${from}&limit=100`;
    const oldPageTag = (await get(read, oldPagePath)).headers.get('etag')!;
    // A cursor taken before the change, continuing after the first pet.
    const cursorPage = await get(read, `/pets?limit=1`);
    const firstId = ((await cursorPage.json()) as StoredPet[])[0]!.id;
    const afterFirst = /<[^>]*\?([^>]+)>; rel="next"/.exec(cursorPage.headers.get('link') ?? '')?.[1];

    const changed = await patchPet(writer(round), key, pet.id, { status: to });
    if (changed.status !== 200) {
      stale.push(`round ${round}: PATCH answered ${changed.status}`);
      continue;
    }
    const tag = changed.headers.get('etag');
    status.set(pet.id, to);
    transitions++;

    const one = await get(read, `/pets/${pet.id}`);
    const shown = (await one.json()) as StoredPet;
    if (shown.status !== to || one.headers.get('etag') !== tag) stale.push(`round ${round}: GET /pets/${pet.id} showed ${shown.status}`);
    const newPage = (await (await get(read, `/pets?status=${to}&limit=100`)).json()) as StoredPet[];
    if (!newPage.some((p) => p.id === pet.id)) stale.push(`round ${round}: pet ${pet.id} missing from the ${to} page`);
    const oldPage = await get(read, oldPagePath, { 'If-None-Match': oldPageTag });
    if (oldPage.status === 304) stale.push(`round ${round}: the ${from} page answered 304 after the change`);
    else if (((await oldPage.json()) as StoredPet[]).some((p) => p.id === pet.id))
      stale.push(`round ${round}: pet ${pet.id} still on the ${from} page`);
    if (afterFirst !== undefined) {
      const continued = (await (await get(read, `/pets?${afterFirst}`)).json()) as StoredPet[];
      if (continued[0] !== undefined && continued[0].id <= firstId) stale.push(`round ${round}: a cursor from before the change went back`);
      if (continued[0]?.id === pet.id && continued[0].status !== to) stale.push(`round ${round}: the cursor's page showed ${continued[0].status}`);
    }
  }
  return { transitions, stale };
}
