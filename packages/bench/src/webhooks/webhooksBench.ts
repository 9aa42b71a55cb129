// `pnpm bench --webhooks`: webhook delivery on the built server (SQLite, then PostgreSQL), to a receiver on loopback that answers at
// once: how many deliveries a second it keeps up with, the time from a change's 201 to its delivery at 100 creates a
// second, and what two subscribed endpoints cost the creates (docs/webhooks.md, docs/performance.md).
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueUnlimitedKey, spawnServer, startPostgres, type ServerProcess } from '@petstore/test-support';
import autocannon from 'autocannon';

const ADMIN_TOKEN = 'webhooks-bench-admin-token-1f4b7e0a3c6d9f2b5e8a1c4d7f0b3e6a';
const SECONDS = 10;

/** Receives webhooks: when each pet's first delivery arrived, per endpoint path. */
async function startReceiver() {
  const arrivals = new Map<string, Map<number, number>>();
  let total = 0;
  let first = 0;
  let last = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const now = performance.now();
      const id = (JSON.parse(body) as { data: { id: number } }).data.id;
      const byPet = arrivals.get(req.url ?? '') ?? arrivals.set(req.url ?? '', new Map()).get(req.url ?? '')!;
      if (!byPet.has(id)) byPet.set(id, now);
      total += 1;
      first ||= now;
      last = now;
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    counts: () => ({ total, first, last }),
    reset: () => {
      arrivals.clear();
      total = first = last = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function admin(server: ServerProcess, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.adminUrl!}${path}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response.status === 204 ? {} : ((await response.json()) as Record<string, unknown>);
}

/** Creates at full speed for SECONDS (50 connections): creates per second. */
async function createsPerSecond(server: ServerProcess, key: string): Promise<number> {
  const result = await autocannon({
    url: `${server.url}/pets`,
    method: 'POST',
    connections: 50,
    duration: SECONDS,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`creates failed: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

const waitFor = async (condition: () => boolean, timeoutMs = 120_000) => {
  for (const since = Date.now(); !condition(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() - since > timeoutMs) throw new Error('timed out waiting for the deliveries');
  }
};

/** 100 creates a second for SECONDS: when each was answered (by pet id), and each create's latency, sorted (ms). */
async function pacedCreates(server: ServerProcess, key: string): Promise<{ answered: Map<number, number>; latencies: number[] }> {
  const answered = new Map<number, number>();
  const latencies: number[] = [];
  const sent: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < 100 * SECONDS; i++) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, start + i * 10 - performance.now())));
    const sentAt = performance.now();
    sent.push(
      fetch(`${server.url}/pets`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: `paced ${i}`, categoryId: 1 }),
      }).then(async (response) => {
        const { id } = (await response.json()) as { id: number };
        const now = performance.now();
        answered.set(id, now);
        latencies.push(now - sentAt);
      }),
    );
  }
  await Promise.all(sent);
  return { answered, latencies: latencies.sort((a, b) => a - b) };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Both databases (PostgreSQL when its binaries are installed), one after the other. */
export async function webhooksBench(): Promise<number> {
  const work = mkdtempSync(join(tmpdir(), 'petstore-webhooks-bench-'));
  try {
    await measure('SQLite', `sqlite:${join(work, 'pets.db')}`);
    const postgres = await startPostgres();
    if (!postgres) console.log('PostgreSQL not measured: no PostgreSQL binaries (pg_config --bindir)');
    else {
      try {
        await measure('PostgreSQL', postgres.url);
      } finally {
        await postgres.stop();
      }
    }
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function measure(label: string, databaseUrl: string): Promise<void> {
  const receiver = await startReceiver();
  const key = await issueUnlimitedKey(databaseUrl);
  const server = await spawnServer({
    DATABASE_URL: databaseUrl,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    ADMIN_TOKEN,
    ADMIN_PORT: '0',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
  try {
    const without = [await createsPerSecond(server, key)];
    const pacedWithout = await pacedCreates(server, key);
    const endpoints = [
      await admin(server, 'POST', '/webhook-endpoints', { url: `${receiver.url}/a` }),
      await admin(server, 'POST', '/webhook-endpoints', { url: `${receiver.url}/b` }),
    ];
    // At 100 creates a second first, on a quiet server; then at full speed, and the backlog delivered to the end.
    receiver.reset();
    const paced = await pacedCreates(server, key);
    await waitFor(
      () => [...receiver.arrivals.values()].every((byPet) => [...paced.answered.keys()].every((id) => byPet.has(id))) && receiver.arrivals.size === 2,
    );
    const lags = [...receiver.arrivals.values()].flatMap((byPet) => [...paced.answered].map(([id, at]) => byPet.get(id)! - at)).sort((a, b) => a - b);

    receiver.reset();
    const startedAt = performance.now();
    const withTwo = await createsPerSecond(server, key);
    const created = Math.round(withTwo * SECONDS);
    await waitFor(() => receiver.counts().total >= 2 * created);
    const { total, last } = receiver.counts();
    const deliveriesPerSecond = total / ((last - startedAt) / 1000);

    for (const endpoint of endpoints) await admin(server, 'DELETE', `/webhook-endpoints/${String(endpoint['id'])}`);
    without.push(await createsPerSecond(server, key));
    const baseline = (without[0]! + without[1]!) / 2;
    const rows = [
      ['creates/s, no endpoint (before, after)', `${Math.round(without[0]!)}, ${Math.round(without[1]!)}`],
      ['creates/s, two endpoints subscribed', `${Math.round(withTwo)} (${((withTwo / baseline) * 100).toFixed(1)} % of no endpoint)`],
      ['deliveries/s while creating at full speed (two per create)', `${Math.round(deliveriesPerSecond)}`],
      [
        '201 to delivery at 100 creates/s: p50 / p99 / max (ms)',
        `${percentile(lags, 50).toFixed(1)} / ${percentile(lags, 99).toFixed(1)} / ${lags.at(-1)!.toFixed(1)}`,
      ],
      [
        'create latency at 100 creates/s, no endpoint: p50 / p99 (ms)',
        `${percentile(pacedWithout.latencies, 50).toFixed(2)} / ${percentile(pacedWithout.latencies, 99).toFixed(2)}`,
      ],
      [
        'create latency at 100 creates/s, two endpoints: p50 / p99 (ms)',
        `${percentile(paced.latencies, 50).toFixed(2)} / ${percentile(paced.latencies, 99).toFixed(2)}`,
      ],
    ];
    console.log(`| Webhooks (${label}, ${SECONDS} s runs) | |\n|---|---:|\n${rows.map(([name, value]) => `| ${name} | ${value} |`).join('\n')}\n`);
  } finally {
    await server.stop();
    await receiver.close();
  }
}
