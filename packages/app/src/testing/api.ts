import { expect } from '@jest/globals';
import { runCliProcess, type ServerProcess } from './processes.js';

export interface StoredPet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}

export const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

/** POST /v1/pets with a JSON body. */
export function postPet(server: ServerProcess, key: string, name: string): Promise<Response> {
  return fetch(`${server.url}/pets`, { method: 'POST', headers: { ...auth(key), 'Content-Type': 'application/json' }, body: JSON.stringify({ name, categoryId: 1 }) });
}

/** Every pet, following the `Link: rel="next"` pages. */
export async function listAllPets(server: ServerProcess, key: string): Promise<StoredPet[]> {
  let pets: StoredPet[] = [];
  let next: string | null = `${server.url}/pets?limit=100`;
  while (next) {
    const response: Response = await fetch(next, { headers: auth(key) });
    pets = pets.concat((await response.json()) as StoredPet[]);
    const link = response.headers.get('link');
    next = link ? `${server.url}/pets${new URL(/<([^>]+)>/.exec(link)![1]!).search}` : null;
  }
  return pets;
}

/** An Enterprise key, issued through the CLI, whose limits never get in the way. */
export async function enterpriseKey(databaseUrl: string): Promise<string> {
  const created = await runCliProcess(['keys', 'create', '--plan', 'enterprise', '--per-minute', '100000000', '--per-day', '100000000'], { DATABASE_URL: databaseUrl });
  expect(created.code).toBe(0);
  return created.stdout.trim();
}

/** Waits until at least `seconds` remain in the current UTC minute, so a burst stays inside one rate-limit window. */
export async function awayFromMinuteEnd(seconds: number): Promise<void> {
  const left = 60 - ((Date.now() / 1000) % 60);
  if (left < seconds) await new Promise((r) => setTimeout(r, left * 1000 + 50));
}
