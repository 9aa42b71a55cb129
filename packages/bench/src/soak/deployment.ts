import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import pg from 'pg';
import {
  eventually,
  freePort,
  issueUnlimitedKeyWithCli,
  runCli,
  SERVER_ENTRY,
  type RunningPgBouncer,
  type RunningPostgres,
  type RunningRedis,
  type RunningReplicatedRedis,
} from '@petstore/test-support';
import { productionSettings } from '../productionSettings.js';

/** One server process of the deployment, on fixed ports so that it comes back where the proxy expects it. */
export class Instance {
  private child: ChildProcess | null = null;

  private constructor(
    readonly name: string,
    readonly port: number,
    readonly metricsPort: number,
    private readonly env: Record<string, string>,
    private readonly logFile: string,
  ) {}

  static async create(name: string, env: Record<string, string>, dir: string): Promise<Instance> {
    return new Instance(name, await freePort(), await freePort(), env, join(dir, `${name}.log`));
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /**
   * Starts the built server (the bundle `petstore-server` runs) with the production settings of docs/deployment.md and waits until it answers /livez. Its log goes to a file
   * (appended across restarts), not through this process, which must not spend its CPU on reading it.
   */
  async start(): Promise<void> {
    const log = openSync(this.logFile, 'a');
    const settings = productionSettings(this.env['DATABASE_URL']);
    const child = spawn(process.execPath, [...settings.nodeArgs, SERVER_ENTRY], {
      env: {
        PATH: process.env['PATH'],
        HOME: process.env['HOME'],
        ...settings.env,
        ...this.env,
        PORT: String(this.port),
        METRICS_PORT: String(this.metricsPort),
      },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    this.child = child;
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`instance ${this.name} exited with code ${child.exitCode}:\n${this.logTail()}`);
        return (await fetch(`http://127.0.0.1:${this.port}/livez`).catch(() => null))?.status === 200;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );
  }

  /** Ends the process with `signal` (SIGKILL: a crash) and waits for it. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }

  /** The warnings and errors the instance logged (JSON lines at level 40 and above), for the report. */
  async loggedProblems(): Promise<string[]> {
    // Line by line: an hour's access log is larger than the longest string V8 can hold.
    const problems: string[] = [];
    for await (const line of createInterface({ input: createReadStream(this.logFile), crlfDelay: Infinity })) {
      if (/"level":(4|5|6)0/.test(line)) problems.push(line);
    }
    return problems;
  }

  private logTail(): string {
    const fd = openSync(this.logFile, 'r');
    try {
      const size = fstatSync(fd).size;
      const tail = Buffer.alloc(Math.min(size, 2_000));
      readSync(fd, tail, 0, tail.length, size - tail.length);
      return tail.toString('utf8');
    } finally {
      closeSync(fd);
    }
  }
}

export interface Keys {
  /** Pages, creates and invalid queries: an Enterprise key whose limits never get in the way. */
  load: string;
  /** The load key's id, which names its counters in Redis (`petstore:rl:{key:ID}:...`). */
  loadId: string;
  /** A Free key (60 a minute) that the load sends far beyond its quota: its answers are 429s. */
  small: string;
  /** A sequential client whose counted use is compared with its admitted requests at the end. */
  accounting: string;
  /** GET /v1/rate_limit, 60 a minute per key: two keys at one query a second between them. */
  usage: [string, string];
}

async function createKey(databaseUrl: string, args: string[]): Promise<string> {
  const created = await runCli(['keys', 'create', ...args], { DATABASE_URL: databaseUrl });
  if (created.code !== 0) throw new Error(`petstore keys create failed: ${created.stderr}`);
  return created.stdout.trim();
}

async function keyIdNamed(databaseUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>('SELECT "id" FROM "api_keys" WHERE "name" = $1', [name]);
    if (rows.length !== 1) throw new Error(`expected one API key named "${name}", found ${rows.length}`);
    return rows[0]!.id;
  } finally {
    await client.end();
  }
}

/**
 * The keys of the run. `accountingBeside(loadId, accountingId)` may refuse an accounting key (a Redis Cluster wants
 * its counters on the same master as the load key's, the one its failover drill kills): another is issued then.
 */
export async function issueKeys(
  databaseUrl: string,
  accountingBeside: (loadId: string, accountingId: string) => Promise<boolean> = async () => true,
): Promise<Keys> {
  // Independent CLI runs, started together: the soak's setup runs alone on the machine, so their waits overlap.
  const others = Promise.all([
    createKey(databaseUrl, ['--plan', 'free', '--name', 'soak: over its quota']),
    createKey(databaseUrl, ['--plan', 'pro', '--name', 'soak: usage 1']),
    createKey(databaseUrl, ['--plan', 'pro', '--name', 'soak: usage 2']),
  ]);
  others.catch(() => undefined); // awaited below; a failure meanwhile is not an unhandled rejection
  const load = await issueUnlimitedKeyWithCli(databaseUrl);
  const loadId = await keyIdNamed(databaseUrl, 'unlimited');
  let accounting: string;
  for (let n = 1; ; n++) {
    const name = n === 1 ? 'soak: accounting' : `soak: accounting ${n}`;
    accounting = await createKey(databaseUrl, ['--plan', 'enterprise', '--per-minute', '100000', '--per-day', '100000000', '--name', name]);
    if (await accountingBeside(loadId, await keyIdNamed(databaseUrl, name))) break;
    if (n === 20) throw new Error('no accounting key landed beside the load key in 20 tries');
  }
  const [small, usage1, usage2] = await others;
  return { load, loadId, small, accounting, usage: [usage1, usage2] };
}

/** A Redis key in the slot of every counter of the API key `id` (they share its hash tag). */
export const banRecordOf = (id: string) => `petstore:rl:{key:${id}}:ban`;

/** What the instances use beside PostgreSQL: one Redis, or PgBouncer in front of PostgreSQL and a Redis Cluster. */
export type Dependencies =
  { topology: 'single'; redis: RunningRedis } | { topology: 'scale-out'; pgbouncer: RunningPgBouncer; redisCluster: RunningReplicatedRedis };

/**
 * PostgreSQL, Redis and the instances of one run, with what the drills need to take each of them away. `postgres` is
 * PostgreSQL itself (the checks and samples read it directly, not through PgBouncer); `redisUrls` are every Redis
 * server of the run, for the memory sample.
 */
export type Deployment = Dependencies & {
  postgres: RunningPostgres;
  redisUrls: string[];
  instances: [Instance, Instance];
  proxyPort: number;
  keys: Keys;
};
