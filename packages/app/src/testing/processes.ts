import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
export const SERVER_ENTRY = join(dist, 'main.js');
export const CLI_ENTRY = join(dist, 'cli', 'main.js');

export interface ServerProcess {
  /** http://127.0.0.1:<port>/v1 */
  url: string;
  /** The secret of the first-run key, when the server printed one. */
  firstRunKey: string | null;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  child: ChildProcess;
}

function baseEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'], HOME: process.env['HOME'], PORT: '0', LOG_LEVEL: 'info', ...env };
}

/** Starts the built server (`node packages/app/dist/main.js`) and waits until it listens. */
export async function spawnServer(env: Record<string, string>, timeoutMs = 20_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, [SERVER_ENTRY], { env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const check = () => {
      const match = /Pet store listening on (\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code} before listening:\n${output}`));
    });
  });

  return {
    url,
    firstRunKey: /^\s+(pst_[A-Za-z0-9_-]{43})$/m.exec(output)?.[1] ?? null,
    output: () => output,
    child,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a Node.js program to completion and collects its output. */
export function runProcess(entry: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [entry, ...args], { env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the built CLI (`petstore ...`) as its own process. */
export const runCliProcess = (args: string[], env: Record<string, string>) => runProcess(CLI_ENTRY, args, env);
