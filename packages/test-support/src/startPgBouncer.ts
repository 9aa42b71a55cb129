import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { eventually } from './eventually.js';
import { freePort, unprivilegedUser, type RunningPostgres, type RunningServer } from './startPostgres.js';

/** `url` is postgres://postgres@127.0.0.1:<port>/petstore through the pooler; `pause`/`start` restart it on the same port. */
export interface RunningPgBouncer extends RunningServer {
  /** `pause` stops it at once (SIGTERM, PgBouncer's immediate shutdown): transactions in flight are cut, as by a crash. */
  pause(): Promise<void>;
  /**
   * Stops it as `systemctl stop` (and `restart`) does, with SIGINT, PgBouncer's safe shutdown: it lets the transactions
   * in flight finish and answer, then closes every connection and exits. `start` brings it back.
   */
  pauseSafely(): Promise<void>;
}

export function pgbouncerBinary(): string | null {
  for (const candidate of [process.env['PGBOUNCER'], '/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  return null;
}

/** How a PgBouncer is configured: its pgbouncer.ini and its auth file (`userlist.txt` beside it). */
export interface PgBouncerSetup {
  /** pgbouncer.ini's text, given the directory it is written to (the auth file's too) and a free port to listen on. */
  ini(dir: string, port: number): string;
  /** The auth file's text. */
  userlist: string;
  /** The URL of a database through it, given its port: the readiness check logs in with it. */
  url(port: number): string;
}

/**
 * Debian's defaults but for where it listens and who may log in: transaction pooling, no ignore_startup_parameters,
 * every database of the PostgreSQL server behind it (`*`), the `postgres` user without a password (as that server).
 */
function testSetup(postgres: RunningPostgres): PgBouncerSetup {
  return {
    ini: (dir, port) =>
      [
        '[databases]',
        `* = host=127.0.0.1 port=${postgres.port}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${join(dir, 'userlist.txt')}`,
        'pool_mode = transaction',
        '',
      ].join('\n'),
    userlist: '"postgres" ""\n',
    url: (port) => `postgres://postgres@127.0.0.1:${port}/petstore`,
  };
}

async function waitUntilServing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited with code ${child.exitCode}:\n${output()}`);
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        await client.query('SELECT 1');
        return true;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
}

/**
 * Starts Debian's PgBouncer on a free loopback port in front of a running PostgreSQL, as the unprivileged user
 * PostgreSQL runs as (PgBouncer refuses root): in transaction pooling mode, or as `setup` says. Returns null when
 * pgbouncer is not installed.
 */
export async function startPgBouncer(postgres: RunningPostgres, setup = testSetup(postgres)): Promise<RunningPgBouncer | null> {
  const binary = pgbouncerBinary();
  if (!binary) return null;
  const user = unprivilegedUser();
  const dir = mkdtempSync(join(tmpdir(), 'petstore-pgbouncer-'));
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(ini, setup.ini(dir, port));
  writeFileSync(join(dir, 'userlist.txt'), setup.userlist);
  if (user) for (const path of [dir, ini, join(dir, 'userlist.txt')]) chownSync(path, user.uid, user.gid);
  const url = setup.url(port);
  let child: ChildProcess;
  let output = '';

  const start = async () => {
    output = '';
    child = spawn(binary, [ini], { stdio: ['ignore', 'pipe', 'pipe'], ...user });
    // Its log (a line per connection, stats every minute) is read so that it never blocks on a full pipe; the end is
    // kept for the message of a failed start.
    const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-10_000));
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    await waitUntilServing(url, child, () => output);
  };
  const exit = async (signal: 'SIGTERM' | 'SIGINT') => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  const pause = () => exit('SIGTERM');
  await start();
  return {
    url,
    port,
    start,
    pause,
    pauseSafely: () => exit('SIGINT'),
    freeze: () => void child.kill('SIGSTOP'),
    thaw: () => void child.kill('SIGCONT'),
    stop: async () => {
      await pause();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
