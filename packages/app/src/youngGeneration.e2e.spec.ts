import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVER_NODE_FLAGS, spawnServer, STOPPED_AT_ONCE } from '@petstore/test-support';

const MB = 1024 * 1024;
const built = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'youngGeneration.js')).href;

/**
 * The young generation's size in MB (V8's new space) in a Node started with `nodeFlags` and `DATABASE_URL`, after
 * `holdYoungGenerationOnSqlite` and enough surviving objects to make V8 grow it, and whether it held.
 */
function youngGenerationAfter(nodeFlags: readonly string[], databaseUrl?: string): { held: boolean; mb: number } {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { holdYoungGenerationOnSqlite } from ${JSON.stringify(built)};
    const held = holdYoungGenerationOnSqlite();
    const kept = [];
    for (let i = 0; i < 2_000_000; i++) kept.push({ i });
    const mb = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size / ${MB};
    console.log(JSON.stringify({ held, mb }));`;
  const env = { PATH: process.env['PATH'], ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }) };
  const run = spawnSync(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], { encoding: 'utf8', env, timeout: 60_000 });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as { held: boolean; mb: number };
}

describe("V8's young generation, held on SQLite at the size the bin starts it with", () => {
  it('stays at 16 MB under the bin flags on SQLite (DATABASE_URL sqlite:, or unset), however many objects survive', () => {
    expect(SERVER_NODE_FLAGS).toContain('--min-semi-space-size=8');
    expect(youngGenerationAfter(SERVER_NODE_FLAGS, 'sqlite:./petstore.db')).toEqual({ held: true, mb: 16 });
    expect(youngGenerationAfter(SERVER_NODE_FLAGS)).toEqual({ held: true, mb: 16 });
  });

  it('grows as V8 decides on PostgreSQL', () => {
    const { held, mb } = youngGenerationAfter(SERVER_NODE_FLAGS, 'postgres://petstore@db.internal/petstore');
    expect(held).toBe(false);
    expect(mb).toBeGreaterThan(16);
  });

  it('is not held in a Node started without the bin flags (it would stay at V8’s 1 MB start)', () => {
    const { held, mb } = youngGenerationAfter([], 'sqlite:./petstore.db');
    expect(held).toBe(false);
    expect(mb).toBeGreaterThan(16);
  });

  describe('in the built server on SQLite', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'petstore-young-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('is 16 MB once the server listens and after it has answered requests (its /metrics)', async () => {
      const server = await spawnServer({ DATABASE_URL: `sqlite:${join(dir, 'petstore.db')}`, METRICS_PORT: '0', ...STOPPED_AT_ONCE });
      try {
        const metrics = `http://127.0.0.1:${/metrics on port (\d+)/.exec(server.output())![1]}/metrics`;
        const youngGenerationMb = async () =>
          Number(/^nodejs_heap_space_size_total_bytes\{space="new"\} (\d+)/m.exec(await (await fetch(metrics)).text())![1]) / MB;
        expect(await youngGenerationMb()).toBe(16);
        const headers = { Authorization: `Bearer ${server.firstRunKey}` };
        // The first-run key's plan allows 60 a minute.
        for (let i = 0; i < 50; i++) expect((await fetch(`${server.url}/pets?limit=100`, { headers })).status).toBe(200);
        expect(await youngGenerationMb()).toBe(16);
      } finally {
        await server.stop();
      }
    });
  });
});
