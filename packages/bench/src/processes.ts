import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchNodeProcess } from '@petstore/test-support';
import { productionSettings } from './productionSettings.js';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = join(here, '..', '..', '..');

export interface Started {
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a Node.js script that reports `ready <port>` on stderr. Its stdout (the request log) is not read, so that
 * the benchmark process does not spend CPU on it. `nodeArgs`: Node's options.
 */
export async function startNodeServer(script: string, env: Record<string, string>, pin = true, nodeArgs: readonly string[] = []): Promise<Started> {
  const launched = await launchNodeProcess(join(here, script), {
    nodeArgs: [...nodeArgs],
    env: { NODE_ENV: 'production', PORT: '0', ...env },
    readyWhen: /ready (\d+)/,
    stdout: 'ignore',
  });
  const pid = launched.child.pid!;
  if (pin) pinToCpu(pid, 0);
  return { port: Number(launched.ready[1]), pid, stop: async () => void (await launched.stop()) };
}

/**
 * The product's server (benchServer.js), with the production settings of docs/deployment.md for its DATABASE_URL, or
 * (`tuned` false) with Node's defaults.
 */
export function startProductServer(env: Record<string, string>, pin = true, tuned = true): Promise<Started> {
  if (!tuned) return startNodeServer('benchServer.js', env, pin);
  const settings = productionSettings(env['DATABASE_URL']);
  return startNodeServer('benchServer.js', { ...settings.env, ...env }, pin, settings.nodeArgs);
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

/**
 * CPU time a process has used so far (user + system, all its threads), in microseconds (Linux; `/proc/<pid>/stat`
 * counts in clock ticks of 1/100 s on every mainstream Linux). Less noisy than requests per second on a shared
 * machine: it does not count the time the process waited for a core.
 */
export function cpuMicros(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

/**
 * Pins a process (all its threads) to one CPU with `taskset`, if there is one: the server on CPU 0, the load
 * generator on CPU 1, so that neither steals the other's core and the rounds vary less. Returns false when not done.
 */
export function pinToCpu(pid: number, cpu: number): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
