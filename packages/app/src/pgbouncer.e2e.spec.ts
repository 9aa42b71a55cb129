import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import {
  eventually,
  runCli,
  runNodeProcess,
  SERVER_ENTRY,
  spawnServer,
  startPgBouncer,
  STOPPED_AT_ONCE,
  type PgBouncerSetup,
  type ServerProcess,
} from '@petstore/test-support';
import { describeWithPgBouncer } from '@petstore/test-support/jest';
import pg from 'pg';
import { auth, listAllPets, postPet } from './testing/api.js';

/** Sends `count` requests, `concurrency` at a time, and counts the answers by status. */
async function statusesOf(count: number, concurrency: number, send: (n: number) => Promise<Response>): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const response = await send(next++);
        await response.arrayBuffer();
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      }
    }),
  );
  return statuses;
}

const DEPLOYMENT_PAGE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'deployment.md');

/** Runs SQL on PostgreSQL as its superuser. */
async function asSuperuser<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** The deployment page's pgbouncer.ini, with only its addresses and the auth file's path made this machine's. */
function deploymentPageSetup(postgresPort: number, userlist: string): PgBouncerSetup {
  const ini = /```ini\n([\s\S]*?)```/.exec(readFileSync(DEPLOYMENT_PAGE, 'utf8'))?.[1] ?? '';
  const local = (dir: string, port: number): [string, string][] => [
    ['host=db.internal port=5432', `host=127.0.0.1 port=${postgresPort}`],
    ['listen_addr = 0.0.0.0', 'listen_addr = 127.0.0.1'],
    ['listen_port = 6432', `listen_port = ${port}\nunix_socket_dir =`],
    ['/etc/pgbouncer/userlist.txt', join(dir, 'userlist.txt')],
  ];
  return {
    ini: (dir, port) =>
      local(dir, port).reduce((text, [from, to]) => {
        if (!text.includes(from)) throw new Error(`the deployment page's pgbouncer.ini no longer says ${from}`);
        return text.replace(from, to);
      }, ini),
    userlist,
    url: (port) => `postgres://petstore:secret@127.0.0.1:${port}/petstore`,
  };
}

describeWithPgBouncer('the built server and CLI through PgBouncer in transaction pooling mode', (servers) => {
  const TIMEOUT_MS = 1_000;
  /** The environment of a process behind the pooler, on one of its databases. */
  const pooled = (database = 'petstore') => ({
    DATABASE_URL: servers().pgbouncer.url.replace(/\/petstore$/, `/${database}`),
    DATABASE_POOL_MODE: 'transaction',
  });
  let server: ServerProcess;
  let key: string;

  beforeAll(async () => {
    server = await spawnServer({
      ...STOPPED_AT_ONCE,
      ...pooled(),
      DATABASE_TIMEOUT_MS: String(TIMEOUT_MS),
      KEY_CACHE_TTL_MS: '5000',
      NODE_ENV: 'production',
    });
    const created = await runCli(['keys', 'create', '--plan', 'enterprise', '--per-minute', '1000000', '--per-day', '100000000'], pooled());
    expect(created).toMatchObject({ code: 0, stdout: expect.stringMatching(/^pst_\w+\n$/) });
    key = created.stdout.trim();
  }, 90_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it('does not start without DATABASE_POOL_MODE=transaction, and says to set it', async () => {
    const { DATABASE_URL } = pooled();
    expect(await runNodeProcess(SERVER_ENTRY, [], { DATABASE_URL, PORT: '0' })).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'failed to start: unsupported startup parameter: statement_timeout (behind PgBouncer or another pooler, set DATABASE_POOL_MODE=transaction)\n',
    });
  }, 30_000);

  it('migrates a new database and creates a key with the CLI', async () => {
    await asSuperuser(servers().postgres.url, 'CREATE DATABASE petstore_cli');
    expect(await runCli(['migrate'], pooled('petstore_cli'))).toEqual({
      code: 0,
      stdout: 'Database schema is up to date (10 migrations).\n',
      stderr: '',
    });
    const created = await runCli(['keys', 'create', '--plan', 'free', '--name', 'kiosk', '--json'], pooled('petstore_cli'));
    expect(created.code).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };
    expect(await runCli(['keys', 'get', id, '--json'], pooled('petstore_cli'))).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('"name": "kiosk"'),
    });
  }, 60_000);

  it('answers every one of 400 concurrent creates and 400 list pages with 2xx, and stores every pet', async () => {
    const statuses = await statusesOf(800, 50, (n) =>
      n % 2 === 0 ? postPet(server, key, `pooled ${n}`) : fetch(`${server.url}/pets?limit=20&status=available`, { headers: auth(key) }),
    );
    expect(statuses).toEqual({ 200: 400, 201: 400 });
    expect((await listAllPets(server, key)).filter((pet) => pet.name.startsWith('pooled '))).toHaveLength(400);
  }, 90_000);

  it('answers 503 within 2 x DATABASE_TIMEOUT_MS + 1 s while PostgreSQL stalls, stores nothing for it, and recovers', async () => {
    // The key is in the server's cache (5 s) from here on, so each request below reaches the pets' statements.
    expect((await fetch(`${server.url}/pets?limit=1`, { headers: auth(key) })).status).toBe(200);
    servers().postgres.freeze();
    let answers: { status: number; retryAfter: string | null; ms: number }[];
    try {
      answers = await Promise.all(
        [() => fetch(`${server.url}/pets?limit=5`, { headers: auth(key) }), () => postPet(server, key, 'during the stall')].map(async (send) => {
          const started = Date.now();
          const response = await send();
          await response.arrayBuffer();
          return { status: response.status, retryAfter: response.headers.get('retry-after'), ms: Date.now() - started };
        }),
      );
    } finally {
      servers().postgres.thaw();
    }
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 503, retryAfter: '5' });
      // The documented bound, and a margin for this loaded machine.
      expect(answer.ms).toBeLessThan(2 * TIMEOUT_MS + 1_000 + 1_500);
    }
    await eventually(async () => (await fetch(`${server.url}/pets?limit=1`, { headers: auth(key) })).status === 200, { timeoutMs: 30_000 });
    expect((await listAllPets(server, key)).filter((pet) => pet.name === 'during the stall')).toEqual([]);
  }, 60_000);

  it("serves through the deployment page's pgbouncer.ini, with the role and the auth file it describes", async () => {
    const admin = servers().postgres.url;
    await asSuperuser(admin, `CREATE ROLE petstore LOGIN PASSWORD 'secret'`);
    await asSuperuser(admin, 'CREATE DATABASE petstore_docs OWNER petstore');
    const secrets = await asSuperuser<{ rolpassword: string }>(admin, `SELECT rolpassword FROM pg_authid WHERE rolname = 'petstore'`);
    expect(secrets).toEqual([{ rolpassword: expect.stringMatching(/^SCRAM-SHA-256\$4096:/) }]);
    const setup = deploymentPageSetup(servers().postgres.port, `"petstore" "${secrets[0]!.rolpassword}"\n`);
    // The page's database is `petstore`; this PostgreSQL already has one, owned by the other tests.
    const pooler = await startPgBouncer(servers().postgres, {
      ...setup,
      ini: (dir, port) => setup.ini(dir, port).replace('dbname=petstore', 'dbname=petstore_docs'),
    });
    if (!pooler) throw new Error('pgbouncer is not installed');
    try {
      const env = { DATABASE_URL: pooler.url, DATABASE_POOL_MODE: 'transaction' };
      const docsServer = await spawnServer({ ...STOPPED_AT_ONCE, ...env, NODE_ENV: 'production' });
      try {
        const created = await runCli(['keys', 'create', '--plan', 'free'], env);
        expect(created.code).toBe(0);
        expect((await postPet(docsServer, created.stdout.trim(), 'configured as documented')).status).toBe(201);
        expect(await asSuperuser(admin.replace(/\/petstore$/, '/petstore_docs'), 'SELECT "name" FROM "pets"')).toEqual([
          { name: 'configured as documented' },
        ]);
      } finally {
        await docsServer.stop();
      }
    } finally {
      await pooler.stop();
    }
  }, 60_000);
});
