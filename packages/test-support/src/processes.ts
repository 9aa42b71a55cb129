import { spawn, type ChildProcess } from 'node:child_process';

export interface LaunchOptions {
  args?: string[];
  /** Node's own options, before the entry (`--no-allocation-site-pretenuring`). */
  nodeArgs?: string[];
  /** The environment: only PATH and HOME are inherited. */
  env?: Record<string, string>;
  /** Resolves once the output (stdout and stderr) matches this. */
  readyWhen: RegExp;
  /** Rejects if not ready by then; default 30 s (a Node start takes over a second on a loaded 2-core machine). */
  timeoutMs?: number;
  /** Where stdout goes: 'pipe' (default, collected) or 'ignore' (a benchmark that must not spend CPU reading logs). */
  stdout?: 'pipe' | 'ignore';
}

export interface LaunchedProcess {
  child: ChildProcess;
  /** The match of `readyWhen`. */
  ready: RegExpExecArray;
  /** Everything the process wrote so far. */
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** Sends a signal (SIGTERM by default) unless the process has exited, then waits for its exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const processEnv = (env: Record<string, string> = {}): NodeJS.ProcessEnv => ({ PATH: process.env['PATH'], HOME: process.env['HOME'], ...env });

/** Starts a Node.js program and waits until its output says it is ready. */
export async function launchNodeProcess(
  entry: string,
  { args = [], nodeArgs = [], env, readyWhen, timeoutMs = 30_000, stdout = 'pipe' }: LaunchOptions,
): Promise<LaunchedProcess> {
  const child = spawn(process.execPath, [...nodeArgs, entry, ...args], { env: processEnv(env), stdio: ['ignore', stdout, 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  const ready = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop('SIGKILL');
      reject(new Error(`${entry} was not ready within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    let ready = false;
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      // Matched once: a server's output grows by a line a request, and matching all of it per chunk costs the quadratic.
      if (ready) return;
      const match = readyWhen.exec(output);
      if (match) {
        ready = true;
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout?.on('data', collect);
    child.stderr!.on('data', collect);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with code ${code} before it was ready:\n${output}`));
    });
  });
  return { child, ready, output: () => output, exited, stop };
}

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a Node.js program to completion and collects its output; killed (and rejected) after `timeoutMs`. */
export function runNodeProcess(entry: string, args: string[], env: Record<string, string> = {}, timeoutMs = 30_000): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], { env: processEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} ${args.join(' ')} did not finish within ${timeoutMs} ms:\n${stdout}${stderr}`));
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
