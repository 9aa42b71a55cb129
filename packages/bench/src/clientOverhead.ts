// `pnpm build && node packages/bench/dist/clientOverhead.js`: what @petstore/client costs per call, compared with
// raw fetch, against the local built server (SQLite) on an Enterprise key whose quota never binds. Not a test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { issueUnlimitedKeyWithCli, spawnServer } from '@petstore/test-support';
import { createClient } from '@petstore/client';

const ROUNDS = 5;
const SECONDS = 2;

/** Calls per second of `call`, `concurrency` at a time, for SECONDS. */
async function rate(call: () => Promise<unknown>, concurrency: number): Promise<number> {
  const end = performance.now() + SECONDS * 1000;
  let calls = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await call();
        calls++;
      }
    }),
  );
  return calls / SECONDS;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const work = mkdtempSync(join(tmpdir(), 'petstore-client-bench-'));
const databaseUrl = `sqlite:${join(work, 'petstore.db')}`;
const server = await spawnServer({ DATABASE_URL: databaseUrl, NODE_ENV: 'production', LOG_LEVEL: 'warn' });
try {
  const apiKey = await issueUnlimitedKeyWithCli(databaseUrl);
  const client = createClient({ baseUrl: server.url, apiKey });
  for (let i = 0; i < 20; i++) await client.createPet({ name: `Bench ${i}`, categoryId: 1 });

  const url = `${server.url}/pets?limit=20`;
  const raw = async () => {
    const response = await fetch(url, { headers: { Authorization: `Bearer ${apiKey}` } });
    if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
    return response.json();
  };
  const viaClient = () => client.listPets({ limit: 20 });
  await rate(raw, 8); // warm-up: JIT, connections, prepared statements
  await rate(viaClient, 8);

  console.log(`GET /v1/pets?limit=20 (20 pets), ${ROUNDS} interleaved rounds of ${SECONDS} s, median:`);
  for (const concurrency of [1, 16]) {
    const raws: number[] = [];
    const clients: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so that neither always runs on a warmer (or more tired) server.
      if (round % 2) clients.push(await rate(viaClient, concurrency));
      raws.push(await rate(raw, concurrency));
      if (round % 2 === 0) clients.push(await rate(viaClient, concurrency));
    }
    // Each round's client rate against the raw rate measured just before it: steadier than absolute numbers on a
    // shared machine.
    const ratio = median(clients.map((c, i) => c / raws[i]!));
    const [r, c] = [median(raws), median(clients)];
    const overheadUs = (1 / (r * ratio) - 1 / r) * 1e6 * concurrency;
    console.log(
      `  concurrency ${String(concurrency).padStart(2)}: raw fetch ${r.toFixed(0)} calls/s, client ${c.toFixed(0)} calls/s; ` +
        `client/raw ${ratio.toFixed(2)} (rounds: ${clients.map((x, i) => (x / raws[i]!).toFixed(2)).join(' ')}), ~${overheadUs.toFixed(0)} µs more per call`,
    );
  }

  // The client's own work per call, without the network: a stub fetch answering with a prebuilt 20-pet page.
  const answer = await fetch(url, { headers: { Authorization: `Bearer ${apiKey}` } });
  const body = await answer.text();
  const headers = answer.headers;
  const stub: typeof fetch = async () => new Response(body, { status: 200, headers });
  const stubbed = createClient({ baseUrl: server.url, apiKey, fetch: stub });
  const calls = 50_000;
  const time = async (call: () => Promise<unknown>) => {
    for (let i = 0; i < 5_000; i++) await call();
    const start = performance.now();
    for (let i = 0; i < calls; i++) await call();
    return ((performance.now() - start) * 1000) / calls;
  };
  const stubRawUs = median([
    await time(async () => (await stub(url)).json()),
    await time(async () => (await stub(url)).json()),
    await time(async () => (await stub(url)).json()),
  ]);
  const stubClientUs = median([
    await time(() => stubbed.listPets({ limit: 20 })),
    await time(() => stubbed.listPets({ limit: 20 })),
    await time(() => stubbed.listPets({ limit: 20 })),
  ]);
  console.log(
    `  without the network (stub fetch): raw ${stubRawUs.toFixed(1)} µs, client ${stubClientUs.toFixed(1)} µs per call: the client's own work is ${(stubClientUs - stubRawUs).toFixed(1)} µs`,
  );
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
