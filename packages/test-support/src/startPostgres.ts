import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { eventually } from './eventually.js';

/** A throw-away server on a loopback port. */
export interface RunningServer {
  url: string;
  port: number;
  /** Stops the server for good and deletes what it stored. */
  stop(): Promise<void>;
  /** Stops the server, for outage tests; `start` brings it back on the same port. */
  pause(): Promise<void>;
  start(): Promise<void>;
  /** SIGSTOP to the server's processes (for PostgreSQL every backend): connections stay open, nothing runs until `thaw`. */
  freeze(): void;
  /** SIGCONT to the same processes: they execute what clients queued meanwhile (stall tests). */
  thaw(): void;
}

/** `url` is postgres://postgres@127.0.0.1:<port>/petstore; `pause` keeps the data. */
export type RunningPostgres = RunningServer;

export function postgresBinDir(): string | null {
  const fromEnv = process.env['PG_BINDIR'];
  if (fromEnv && existsSync(join(fromEnv, 'postgres'))) return fromEnv;
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (existsSync(join(dir, 'postgres'))) return dir;
  } catch {
    // pg_config is not on the PATH: look where Debian installs the server
  }
  const debian = '/usr/lib/postgresql';
  const versions = existsSync(debian) ? readdirSync(debian).sort((a, b) => Number(b) - Number(a)) : [];
  return versions.map((v) => join(debian, v, 'bin')).find((dir) => existsSync(join(dir, 'postgres'))) ?? null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL (and PgBouncer) refuse to run as root: run them as the `postgres` user when there is one, else as `nobody`. */
export function unprivilegedUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }));
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }));
      return { uid, gid };
    } catch {
      // try the next one
    }
  }
  throw new Error('running as root and found no unprivileged user (postgres, nobody) to run PostgreSQL');
}

async function waitUntilReady(url: string, server: ChildProcess): Promise<void> {
  await eventually(
    async () => {
      if (server.exitCode !== null) throw new Error(`postgres exited with code ${server.exitCode}`);
      const client = new pg.Client({ connectionString: url });
      try {
        await client.connect();
        return true;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
}

const INITDB_ARGS = ['-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'];

/**
 * A data directory made by initdb once per machine, user, server version and initdb arguments, kept in the temporary
 * directory: each server starts on a copy of it (initdb takes about 1.5 CPU-seconds, the copy 0.4). It is made in a
 * directory of its own and renamed into place, so that test files starting PostgreSQL at the same time never copy
 * half of one; the loser of a race deletes its own.
 */
function templateDataDir(bin: string, user: { uid: number; gid: number } | undefined): string {
  const version = execFileSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).trim();
  const id = createHash('sha256')
    .update(`${version} ${INITDB_ARGS.join(' ')}`)
    .digest('hex')
    .slice(0, 12);
  const template = join(tmpdir(), `petstore-pg-template-${user?.uid ?? process.getuid?.() ?? 'user'}-${id}`);
  if (existsSync(template)) return template;
  const making = mkdtempSync(`${template}-making-`);
  if (user) chownSync(making, user.uid, user.gid);
  try {
    execFileSync(join(bin, 'initdb'), ['-D', join(making, 'data'), ...INITDB_ARGS], { stdio: 'ignore', ...user });
    renameSync(join(making, 'data'), template);
  } catch (error) {
    if (!existsSync(template)) throw error;
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
  return template;
}

/**
 * Starts a throw-away PostgreSQL server on a free loopback port, in a temporary directory, as an unprivileged
 * user, with a `petstore` database. Returns null when the server binaries are not installed.
 */
export async function startPostgres(): Promise<RunningPostgres | null> {
  const bin = postgresBinDir();
  if (!bin) return null;
  const user = unprivilegedUser();
  const dir = mkdtempSync(join(tmpdir(), 'petstore-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  execFileSync('cp', ['-a', templateDataDir(bin, user), data], { stdio: 'ignore', ...user });
  const port = await freePort();
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let server: ChildProcess;

  const start = async () => {
    server = spawn(
      join(bin, 'postgres'),
      [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
      ],
      { stdio: 'ignore', ...user },
    );
    await waitUntilReady(adminUrl, server);
  };
  const pause = async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGINT');
    await exited;
  };

  const signalAll = (signal: NodeJS.Signals) => {
    const postmaster = server.pid!;
    // The backends are the postmaster's children; stop the parent first so it forks no new one meanwhile.
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0);
    const order = signal === 'SIGSTOP' ? [postmaster, ...children] : [...children, postmaster];
    for (const pid of order) process.kill(pid, signal);
  };

  await start();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE petstore');
  await admin.end();

  return {
    url: `postgres://postgres@127.0.0.1:${port}/petstore`,
    port,
    start,
    pause,
    freeze: () => signalAll('SIGSTOP'),
    thaw: () => signalAll('SIGCONT'),
    stop: async () => {
      await pause();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
