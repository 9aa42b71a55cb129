import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { freePort } from './startPostgres.js';

export interface RunningRedis {
  url: string;
  port: number;
  /** Stops the server; `start` brings a new one up on the same port (outage tests). */
  pause(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** SIGSTOP: the server keeps its connections but answers nothing until `thaw` (stall tests). */
  freeze(): void;
  /** SIGCONT: the server runs again and executes what was queued on its connections meanwhile. */
  thaw(): void;
}

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

async function waitForPort(port: number, child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' }, () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error('redis-server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A throw-away redis-server on a free loopback port, without persistence. Null when redis-server is not installed. */
export async function startRedis(): Promise<RunningRedis | null> {
  const binary = redisServerBinary();
  if (!binary) return null;
  const port = await freePort();
  let child: ChildProcess;
  const start = async () => {
    child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'], { stdio: 'ignore' });
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

/** For test files: a running Redis, or null with a loud message; under CI its absence is an error. */
export async function startRedisForTests(): Promise<RunningRedis | null> {
  const running = await startRedis();
  if (running) return running;
  if (process.env['CI']) throw new Error('redis-server not found; CI requires it (apt-get install redis-server)');
  console.warn('\n\n!!! redis-server not found: the Redis suites are SKIPPED (apt-get install redis-server) !!!\n\n');
  return null;
}
