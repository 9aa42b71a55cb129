import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { eventually, issueUnlimitedKeyWithCli, launchNodeProcess, SERVER_ENTRY } from '@petstore/test-support';

// The server under the garbage collector: while it serves pages, creates and status changes, a module loaded first
// (`--import`) forces a collection every few milliseconds (`--expose-gc`), young and full in turn, and goes on once the
// load ends, so that what the requests left (SQLite statements among it) is collected while nothing runs. A native
// module that frees its objects wrongly at collection aborts the process (better-sqlite3 12 built against Node 24.19+'s
// headers did: "Assertion failed: (env) != nullptr"); this server must live through it and stop cleanly.
const FORCED_COLLECTIONS = `let n = 0;
setInterval(() => {
  n++;
  globalThis.gc(n % 4 ? { type: 'minor' } : undefined);
  if (n % 20 === 0) process.stderr.write('forced collections: ' + n + '\\n');
}, 5).unref();`;

const dir = mkdtempSync(join(tmpdir(), 'petstore-gc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const collectionsSoFar = (output: string) => Number([...output.matchAll(/forced collections: (\d+)/g)].at(-1)?.[1] ?? 0);

describe('the server while the garbage collector runs without pause', () => {
  it('serves pages, creates and status changes, idles, and exits 0 on SIGTERM', async () => {
    const databaseUrl = `sqlite:${join(dir, 'gc.db')}`;
    const key = await issueUnlimitedKeyWithCli(databaseUrl);
    const server = await launchNodeProcess(SERVER_ENTRY, {
      nodeArgs: ['--expose-gc', `--import=data:text/javascript,${encodeURIComponent(FORCED_COLLECTIONS)}`],
      env: { DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'warn', SHUTDOWN_TIMEOUT_MS: '0' },
      readyWhen: /Pet store listening on (\S+)/,
      timeoutMs: 60_000,
    });
    const url = server.ready[1]!;
    const headers = { Authorization: `Bearer ${key}` };
    const send = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${url}${path}`, { ...init, headers: { ...headers, ...init.headers } });
      await response.arrayBuffer();
      return response.status;
    };
    try {
      const statuses: number[] = [];
      // 8 clients, each 25 rounds of a create, two status changes of what it created, and two different pages.
      await Promise.all(
        Array.from({ length: 8 }, async (_, client) => {
          for (let round = 0; round < 25; round++) {
            const created = await fetch(`${url}/pets`, {
              method: 'POST',
              headers: { ...headers, 'Content-Type': 'application/json' },
              body: JSON.stringify({ name: `Pet ${client}-${round}`, categoryId: 1 + (round % 5) }),
            });
            statuses.push(created.status);
            const { id } = (await created.json()) as { id: number };
            for (const status of ['pending', 'available']) {
              statuses.push(
                await send(`/pets/${id}`, {
                  method: 'PATCH',
                  headers: { 'Content-Type': 'application/merge-patch+json' },
                  body: JSON.stringify({ status }),
                }),
              );
            }
            statuses.push(await send(`/pets?limit=${1 + ((client * 7 + round) % 100)}`));
            statuses.push(await send(`/pets?status=${round % 2 ? 'available' : 'pending'}&limit=${1 + (round % 50)}`));
          }
        }),
      );
      expect(statuses.filter((status) => status >= 300)).toEqual([]);
      expect(statuses).toHaveLength(8 * 25 * 5);

      // Idle: 60 more forced collections with no request in flight.
      const afterLoad = collectionsSoFar(server.output());
      expect(afterLoad).toBeGreaterThan(0);
      await eventually(() => collectionsSoFar(server.output()) >= afterLoad + 60, { timeoutMs: 60_000 });
      expect(await send('/pets?limit=5')).toBe(200);
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
    expect(server.child.signalCode).toBeNull();
    expect(server.output()).not.toMatch(/Assertion failed|FATAL ERROR|Abort/i);
  }, 180_000);
});
