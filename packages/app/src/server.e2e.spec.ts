import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  eventually,
  freePort,
  issueKey,
  issueUnlimitedKey,
  rawRequest,
  runCli,
  runNodeProcess,
  SERVER_ENTRY,
  spawnServer,
  STOPPED_AT_ONCE,
  WITH_ADMIN_API,
  type ServerProcess,
} from '@petstore/test-support';
import { describeWithPostgres } from '@petstore/test-support/jest';
import { loadConfig } from './config.js';
import { createContainer } from './container.js';
import { startServer } from './server.js';
import { auth, burstUntilLimited, listAllPets, postPet } from './testing/api.js';
import { TOKENS } from './tokens.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let databases = 0;
const newSqliteUrl = () => `sqlite:${join(dir, `db-${++databases}`, 'petstore.db')}`;

describe('the built server on SQLite', () => {
  const databaseUrl = newSqliteUrl();
  let server: ServerProcess;
  const logs: string[] = [];
  const secrets: string[] = [];

  beforeAll(async () => {
    server = await spawnServer({ ...STOPPED_AT_ONCE, ...WITH_ADMIN_API, DATABASE_URL: databaseUrl, METRICS_PORT: '0' });
  }, 30_000);
  afterAll(async () => {
    logs.push(server.output());
    await server.stop();
    // No secret ever reaches a log line (the one-time first-run banner is plain text, not a log line).
    const logLines = logs
      .join('\n')
      .split('\n')
      .filter((line) => line.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(logLines.filter((line) => line.includes(secret))).toEqual([]);
  });

  it('prints a first-run Free key and a curl command that answers 200 []', async () => {
    expect(server.firstRunKey).toMatch(/^pst_/);
    secrets.push(server.firstRunKey!);
    const curl = /curl -i -H "Authorization: Bearer (pst_\S+)" (\S+)/.exec(server.output());
    expect(curl).not.toBeNull();
    const response = await fetch(curl![2]!, { headers: auth(curl![1]!) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
    expect(response.headers.get('x-ratelimit-limit')).toBe('60');
  });

  it('creates, lists and gets pets, and refuses a request without a key', async () => {
    const key = server.firstRunKey!;
    const created = await postPet(server, key, 'Rex');
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };
    expect(created.headers.get('location')).toBe(`${server.url}/pets/${pet.id}`);
    expect(await (await fetch(`${server.url}/pets/${pet.id}`, { headers: auth(key) })).json()).toEqual({
      id: pet.id,
      name: 'Rex',
      categoryId: 1,
      status: 'available',
    });
    expect((await fetch(`${server.url}/pets`)).status).toBe(401);
  });

  it('names the address that answers in Location, Link and the OpenAPI servers (no PUBLIC_BASE_URL, PORT=0)', async () => {
    const key = await issueUnlimitedKey(server);
    secrets.push(key);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*\/v1$/);
    await postPet(server, key, 'Max');
    const location = (await postPet(server, key, 'Bella')).headers.get('location')!;
    const next = /^<([^>]+)>; rel="next"$/.exec((await fetch(`${server.url}/pets?limit=1`, { headers: auth(key) })).headers.get('link')!)![1]!;
    const successor = /^<([^>]+)>; rel="successor-version"$/.exec((await fetch(location, { headers: auth(key) })).headers.get('link')!)![1]!;
    const document = (await (await fetch(`${server.url}/openapi.json`, { headers: auth(key) })).json()) as { servers: { url: string }[] };
    const under = (path: string) => expect.stringMatching(new RegExp(`^${(server.url + path).replace(/[.?]/g, '\\$&')}`));
    expect({ location, next, successor, servers: document.servers }).toEqual({
      location: under('/pets/'),
      next: under('/pets?'),
      successor: under('/pets'),
      servers: [{ url: server.url }],
    });
    for (const url of [location, next, successor]) expect((await fetch(url, { headers: auth(key) })).status).toBe(200);
  });

  it('rate-limits the Free key at 60 per minute', async () => {
    const { key } = await issueKey(server, { plan: 'free' });
    secrets.push(key);
    const window = await burstUntilLimited(() => [fetch(`${server.url}/pets`, { headers: auth(key) })], 200);
    expect(window.map((answer) => answer.status)).toEqual([...Array(60).fill(200), 429]);
  }, 60_000);

  it('stops accepting a key revoked through the CLI within 5 seconds', async () => {
    const { id, key } = await issueKey(server, { plan: 'pro' });
    secrets.push(key);
    expect((await fetch(`${server.url}/pets`, { headers: auth(key) })).status).toBe(200);
    expect((await runCli(['keys', 'revoke', id], { DATABASE_URL: databaseUrl })).code).toBe(0);
    await eventually(async () => (await fetch(`${server.url}/pets`, { headers: auth(key) })).status === 401, { timeoutMs: 5_000 });
  }, 30_000);

  it('answers /livez and /readyz, and serves Prometheus metrics on its own port', async () => {
    expect((await fetch(server.url.replace('/v1', '/livez'))).status).toBe(200);
    expect(await (await fetch(server.url.replace('/v1', '/readyz'))).json()).toEqual({ status: 'ready' });
    const metricsPort = /metrics on port (\d+)/.exec(server.output())![1];
    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/petstore_http_requests_total\{method="GET",route="\/v1\/pets",status="200"\} \d+/);
    expect(metrics).toMatch(/petstore_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v1\/pets",status="200"\}/);
    expect(metrics).toMatch(/petstore_rate_limit_rejections_total\{code="rate_limited"\} [1-9]/);
  });

  it('serves the API reference at /docs without a key, and a key its usage at /v1/rate_limit', async () => {
    const docs = await fetch(server.url.replace('/v1', '/docs'));
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-security-policy')).toContain("default-src 'self'");
    const usage = await fetch(`${server.url}/rate_limit`, { headers: auth(server.firstRunKey!) });
    expect(usage.status).toBe(200);
    expect(await usage.json()).toMatchObject({
      plan: 'free',
      windows: [
        { name: 'minute', limit: 60 },
        { name: 'day', limit: 1000 },
      ],
    });
  });

  it('writes one JSON log line per request with request id, route, status, duration and key id', async () => {
    await fetch(`${server.url}/pets?limit=3`, { headers: { ...auth(server.firstRunKey!), 'X-Request-Id': 'log-check-1' } });
    const line = await eventually(() =>
      server
        .output()
        .split('\n')
        .find((l) => l.includes('"log-check-1"')),
    );
    expect(JSON.parse(line)).toMatchObject({
      msg: 'request',
      requestId: 'log-check-1',
      method: 'GET',
      route: '/v1/pets',
      status: 200,
      durationMs: expect.any(Number),
      keyId: expect.stringMatching(/^key_/),
    });
  });
});

describe('the built server across restarts and shutdowns (SQLite)', () => {
  it('keeps pets and keys across a restart, and creates no second first-run key', async () => {
    const databaseUrl = newSqliteUrl();
    const first = await spawnServer({ ...STOPPED_AT_ONCE, DATABASE_URL: databaseUrl });
    const key = first.firstRunKey!;
    const ids: number[] = [];
    for (const name of ['Rex', 'Max', 'Bella']) ids.push(((await (await postPet(first, key, name)).json()) as { id: number }).id);
    expect(await first.stop('SIGTERM')).toBe(0);

    const second = await spawnServer({ ...STOPPED_AT_ONCE, DATABASE_URL: databaseUrl });
    expect(second.firstRunKey).toBeNull();
    expect((await listAllPets(second, key)).map((p) => p.id)).toEqual(ids);
    await second.stop();
  }, 30_000);

  it('writes the log lines it still holds when it exits, on SIGTERM and on a second signal that exits at once', async () => {
    const graceful = await spawnServer({ ...STOPPED_AT_ONCE, DATABASE_URL: newSqliteUrl() });
    await fetch(`${graceful.url}/pets`, { headers: { ...auth(graceful.firstRunKey!), 'X-Request-Id': 'last-before-sigterm' } });
    expect(await graceful.stop('SIGTERM')).toBe(0);
    await eventually(() => /"last-before-sigterm"[^]*"msg":"stopped"/.test(graceful.output()));

    // The second signal exits without waiting for the drain (an idle keep-alive connection holds it for 5 s).
    const hurried = await spawnServer({ DATABASE_URL: newSqliteUrl() });
    await fetch(`${hurried.url}/pets`, { headers: { ...auth(hurried.firstRunKey!), 'X-Request-Id': 'last-before-exit' } });
    hurried.child.kill('SIGTERM');
    await eventually(() => hurried.output().includes('SIGTERM: finishing in-flight requests'));
    expect(await hurried.stop('SIGTERM')).toBe(1);
    await eventually(() => hurried.output().includes('"last-before-exit"'));
  }, 30_000);

  it('on SIGTERM under load finishes in-flight requests and exits 0; every acknowledged create is on disk', async () => {
    const databaseUrl = newSqliteUrl();
    const server = await spawnServer({ ...WITH_ADMIN_API, DATABASE_URL: databaseUrl });
    const key = await issueUnlimitedKey(server);
    const acknowledged: number[] = [];
    const failures: string[] = [];
    const answeredPerClient = Array<number>(20).fill(0);
    // Each client on one keep-alive connection of its own, opened before the signal. fetch's pool opens another
    // connection whenever its sockets are busy, and a connection still in the kernel's queue when the listener closes
    // is reset, which no server can prevent (a deploy takes the instance out of the load balancer first).
    const connections = Array.from({ length: 20 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
    let stopping = false;
    let sigtermAt = 0;
    // When a request failed, before the signal or how long after it: a failure then says which phase it was in.
    const when = () => (sigtermAt === 0 ? 'before SIGTERM' : `${Math.round(performance.now() - sigtermAt)} ms after SIGTERM`);
    const client = async (n: number) => {
      for (let i = 0; !stopping || i < 1; i++) {
        try {
          const response = await rawRequest(`${server.url}/pets`, {
            method: 'POST',
            headers: auth(key),
            body: { name: `load ${n}-${i}`, categoryId: 1 },
            agent: connections[n]!,
          });
          answeredPerClient[n]!++;
          if (response.status === 201) acknowledged.push((response.json as { id: number }).id);
          else failures.push(`status ${response.status}`);
        } catch (error) {
          // After the listener closes, new connections are refused: that is not a lost request.
          const code = (error as { code?: string }).code;
          if (code !== 'ECONNREFUSED') failures.push(`${code ?? String(error)} (client ${n}, request ${i}, ${when()})`);
          return;
        }
      }
    };
    const clients = Array.from({ length: 20 }, (_, n) => client(n));
    await eventually(() => answeredPerClient.every((count) => count >= 2), { timeoutMs: 30_000 });
    sigtermAt = performance.now();
    const exit = server.stop('SIGTERM');
    stopping = true;
    await Promise.all(clients);
    for (const connection of connections) connection.destroy();
    expect(await exit).toBe(0);
    expect(failures).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(20);

    const restarted = await spawnServer({ ...STOPPED_AT_ONCE, DATABASE_URL: databaseUrl });
    const stored = new Set((await listAllPets(restarted, key)).map((p) => p.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    await restarted.stop();
  }, 60_000);

  it('turns the API reference off with DOCS_ENABLED=false', async () => {
    const server = await spawnServer({ ...STOPPED_AT_ONCE, DATABASE_URL: newSqliteUrl(), DOCS_ENABLED: 'false' });
    try {
      const docs = await fetch(server.url.replace('/v1', '/docs'));
      expect(docs.status).toBe(404);
      expect(await docs.json()).toMatchObject({ code: 'not_found' });
    } finally {
      await server.stop();
    }
  }, 30_000);

  it('stops at once with exit code 2 and one line on a bad setting', async () => {
    const settings = [
      ['PORT', 'eighty'],
      ['DATABASE_URL', 'mongodb://x/y'],
      ['DATABASE_POOL_MODE', 'statement'],
      ['PUBLIC_BASE_URL', 'ftp://x/v1'],
      ['REDIS_CLUSTER_NODES', '10.0.0.1:7000;10.0.0.2:7000'],
      ['REDIS_SENTINELS', '10.0.0.1'],
    ] as const;
    // Independent processes: started together.
    const results = await Promise.all(settings.map(([name, value]) => runNodeProcess(SERVER_ENTRY, [], { [name]: value })));
    settings.forEach(([name, value], i) => {
      expect(results[i]!.code).toBe(2);
      expect(results[i]!.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^${name}="${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}" is invalid: expected .+`)),
      ]);
    });
  });

  it('stops with exit code 1 and one line naming PORT and HOST when it cannot listen', async () => {
    const holder = createNetServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as AddressInfo).port;
    try {
      const inUse = await runNodeProcess(SERVER_ENTRY, [], { PORT: String(taken), DATABASE_URL: newSqliteUrl() });
      expect(inUse).toEqual({
        code: 1,
        stdout: '',
        stderr: `failed to start: PORT=${taken} HOST=127.0.0.1: port ${taken} is already in use on 127.0.0.1 (another petstore server?). Stop what holds it, or set PORT to a free port (PORT=0: any free port).\n`,
      });
    } finally {
      holder.close();
    }
    // 192.0.2.1 (TEST-NET-1, RFC 5737) is never an address of this machine.
    const foreign = await runNodeProcess(SERVER_ENTRY, [], { PORT: '0', HOST: '192.0.2.1', DATABASE_URL: newSqliteUrl() });
    expect(foreign).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'failed to start: PORT=0 HOST=192.0.2.1: 192.0.2.1 is not an address of this machine. Set HOST=127.0.0.1 (this machine only) or HOST=0.0.0.0 (every interface).\n',
    });
  });

  // Every 127.x.y.z address is this machine's: HOST on one, the metrics on another.
  it.each([
    ['127.0.0.1 by default, not HOST', { HOST: '127.0.0.2' }, { '127.0.0.1': true, '127.0.0.2': false }],
    ['METRICS_HOST when set', { METRICS_HOST: '127.0.0.3' }, { '127.0.0.3': true, '127.0.0.1': false }],
  ])(
    'serves /metrics on %s',
    async (_, env, reached) => {
      const reaches = async (host: string, port: string) => {
        try {
          return (await fetch(`http://${host}:${port}/metrics`)).status === 200;
        } catch {
          return false;
        }
      };
      const server = await spawnServer({ ...STOPPED_AT_ONCE, DATABASE_URL: newSqliteUrl(), METRICS_PORT: '0', ...env });
      try {
        const port = /metrics on port (\d+)/.exec(server.output())![1]!;
        const hosts = Object.keys(reached);
        expect(Object.fromEntries(await Promise.all(hosts.map(async (host) => [host, await reaches(host, port)])))).toEqual(reached);
      } finally {
        await server.stop();
      }
    },
    60_000,
  );

  it('prints nothing at all with LOG_LEVEL=silent, but for the first-run key, shown once', async () => {
    const databaseUrl = newSqliteUrl();
    const outputs: string[] = [];
    for (const _start of ['first', 'second']) {
      const port = await freePort();
      const child = spawn(process.execPath, [SERVER_ENTRY], {
        env: { PATH: process.env['PATH'], PORT: String(port), DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...STOPPED_AT_ONCE },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const collect = (chunk: Buffer) => (output += chunk.toString());
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      const exited = once(child, 'exit');
      try {
        // Nothing printed to wait for: ready once it answers (a request that would write an access log line).
        await eventually(async () => (await fetch(`http://127.0.0.1:${port}/v1/pets`).catch(() => null))?.status === 401, { timeoutMs: 30_000 });
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toEqual([0, null]);
      outputs.push(output);
    }
    expect(outputs[0]).toMatch(
      /^\nCreated a Free-plan API key \(key_[0-9a-f]{16}\) because the key store was empty\. It is shown only this once:\n\n {2}pst_\S+\n\nTry it:\n\n {2}curl -i -H "Authorization: Bearer pst_\S+" http:\/\/127\.0\.0\.1:\d+\/v1\/pets\n\n$/,
    );
    expect(outputs[1]).toBe('');
  }, 60_000);

  it('never prints a password of DATABASE_URL or REDIS_URL, in a configuration error or a start failure', async () => {
    const [unreachable, ...misconfigured] = await Promise.all([
      runNodeProcess(SERVER_ENTRY, [], { DATABASE_URL: 'postgres://admin:hunter2@127.0.0.1:1/petstore', DATABASE_TIMEOUT_MS: '500' }),
      runNodeProcess(SERVER_ENTRY, [], { DATABASE_URL: 'mysql://admin:hunter2@db/x' }),
      runNodeProcess(SERVER_ENTRY, [], { REDIS_URL: 'redis://:hunter2@cache:port' }),
    ]);
    for (const result of misconfigured) {
      expect(result.code).toBe(2);
      expect(result.stderr).not.toContain('hunter2');
      expect(result.stderr).toMatch(/:\*\*\*@/);
    }
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr + unreachable.stdout).not.toContain('hunter2');
  }, 30_000);

  it('creates the directory of the default-style SQLite path', async () => {
    const databaseUrl = `sqlite:${join(dir, 'nested', 'deeper', 'petstore.db')}`;
    const server = await spawnServer({ DATABASE_URL: databaseUrl });
    expect(existsSync(join(dir, 'nested', 'deeper', 'petstore.db'))).toBe(true);
    await server.stop();
  });
});

describeWithPostgres('the built server on PostgreSQL', (postgres) => {
  it('serves create, list, get and limits, and keeps everything across a restart', async () => {
    const databaseUrl = postgres().url;
    const first = await spawnServer({ ...STOPPED_AT_ONCE, DATABASE_URL: databaseUrl });
    const key = first.firstRunKey!;
    expect(key).toMatch(/^pst_/);
    const created = await postPet(first, key, 'Rex');
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };
    expect((await fetch(`${first.url}/pets/${pet.id}`, { headers: auth(key) })).status).toBe(200);
    expect((await fetch(`${first.url}/pets`)).status).toBe(401);
    expect(await first.stop()).toBe(0);

    const second = await spawnServer({ ...STOPPED_AT_ONCE, ...WITH_ADMIN_API, DATABASE_URL: databaseUrl });
    expect(second.firstRunKey).toBeNull();
    expect(await listAllPets(second, key)).toEqual([{ id: pet.id, name: 'Rex', categoryId: 1, status: 'available' }]);
    const { key: proKey } = await issueKey(second, { plan: 'pro' });
    expect((await fetch(`${second.url}/pets`, { headers: auth(proKey) })).headers.get('x-ratelimit-limit')).toBe('300');
    await second.stop();
  }, 60_000);
});

describe('startServer in process', () => {
  it('links to the port actually bound when the container was built before it started (PORT=0)', async () => {
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', PORT: '0', NODE_ENV: 'production', LOG_LEVEL: 'silent' });
    const container = createContainer(config);
    const server = await startServer(config, container);
    try {
      const { secret } = await (await container.getAsync(TOKENS.PetStore)).issueApiKey.execute({ plan: 'pro' }, 'cli');
      const created = await fetch(`${server.url}/pets`, {
        method: 'POST',
        headers: { ...auth(secret), 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });
      expect(created.headers.get('location')).toBe(`${server.url}/pets/1`);
    } finally {
      await server.close();
    }
  });
});
