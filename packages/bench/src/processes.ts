import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = join(here, '..', '..', '..');
export const CLI_ENTRY = join(REPO, 'packages', 'app', 'dist', 'cli', 'main.js');

export interface Started {
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a Node.js script that reports `ready <port>` on stderr. Its stdout (the request log) goes to /dev/null so
 * that the benchmark process does not spend CPU reading it.
 */
export async function startNodeServer(script: string, env: Record<string, string>): Promise<Started> {
  const child: ChildProcess = spawn(process.execPath, [join(here, script)], {
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], NODE_ENV: 'production', PORT: '0', ...env },
    stdio: ['ignore', openSync('/dev/null', 'w'), 'pipe'],
  });
  let stderr = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /ready (\d+)/.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${stderr}`)));
  });
  return {
    port,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Runs the admin CLI and returns its stdout. */
export function cli(args: string[], databaseUrl: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_ENTRY, ...args], { env: { PATH: process.env['PATH'], DATABASE_URL: databaseUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`petstore ${args.join(' ')}: ${err}`))));
  });
}

/** Peak resident set size of a process so far, in MB (Linux). */
export function peakRssMb(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Resets the peak RSS counter of a process (Linux: writing 5 to clear_refs), so each scenario reports its own peak. */
export function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not permitted here: the peak then covers the process's whole life
  }
}
