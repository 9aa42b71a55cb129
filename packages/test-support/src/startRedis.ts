import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { eventually } from './eventually.js';
import { freePort, type RunningServer } from './startPostgres.js';

/** `pause` stops the server; `start` brings a new one up on the same port (outage tests). */
export type RunningRedis = RunningServer;

export function redisServerBinary(): string | null {
  for (const candidate of [process.env['REDIS_SERVER'], '/usr/bin/redis-server', '/usr/local/bin/redis-server']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Resolves once a redis-server (or Sentinel) accepts connections on the port; rejects if it exits first. */
export async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`${child.spawnfile} exited with code ${child.exitCode}`);
      return acceptsConnections(port);
    },
    { timeoutMs: 10_000 },
  );
}

/** A throw-away redis-server on a free loopback port, without persistence. Null when redis-server is not installed. */
export async function startRedis(): Promise<RunningRedis | null> {
  const binary = redisServerBinary();
  if (!binary) return null;
  const port = await freePort();
  let child: ChildProcess;
  const start = async () => {
    child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], {
      stdio: 'ignore',
    });
    await waitForPort(port, child);
  };
  const pause = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    pause,
    stop: pause,
    freeze: () => void child.kill('SIGSTOP'),
    thaw: () => void child.kill('SIGCONT'),
  };
}
