import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchNodeProcess } from '@petstore/test-support';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = join(here, '..', '..', '..');

export interface Started {
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a Node.js script that reports `ready <port>` on stderr. Its stdout (the request log) is not read, so that
 * the benchmark process does not spend CPU on it.
 */
export async function startNodeServer(script: string, env: Record<string, string>): Promise<Started> {
  const launched = await launchNodeProcess(join(here, script), {
    env: { NODE_ENV: 'production', PORT: '0', ...env },
    readyWhen: /ready (\d+)/,
    stdout: 'ignore',
  });
  return { port: Number(launched.ready[1]), pid: launched.child.pid!, stop: async () => void (await launched.stop()) };
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
