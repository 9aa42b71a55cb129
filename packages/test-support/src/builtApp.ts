import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchNodeProcess, runNodeProcess, type LaunchedProcess, type ProcessResult } from './processes.js';

const app = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'app');
/** What the bins run: the bundles `pnpm build` makes of `@petstore/app`'s server and CLI (run `pnpm build` first). */
export const SERVER_ENTRY = join(app, 'dist', 'bundle', 'server.js');
export const CLI_ENTRY = join(app, 'dist', 'bundle', 'cli.js');
/** The server's bin (`petstore-server`), which imports SERVER_ENTRY. */
export const SERVER_BIN = join(app, 'bin', 'petstore-server.js');
/** The admin CLI's bin (`petstore`), which imports CLI_ENTRY. */
export const CLI_BIN = join(app, 'bin', 'petstore.js');

export interface ServerProcess extends LaunchedProcess {
  /** http://127.0.0.1:<port>/v1 */
  url: string;
  /** http://127.0.0.1:<port>/admin/v1 when ADMIN_TOKEN is set, else null. */
  adminUrl: string | null;
  /** The secret of the first-run key, when the server printed one. */
  firstRunKey: string | null;
}

/**
 * The environment of a server whose stop is no part of the test: SHUTDOWN_TIMEOUT_MS=0 closes its connections as soon
 * as it is stopped. Otherwise its drain waits for the idle keep-alive connection that the test's `fetch` keeps to it,
 * which `fetch` closes about 3 s later (2 s before the server's 5-s keep-alive timeout).
 */
export const STOPPED_AT_ONCE: Readonly<Record<string, string>> = { SHUTDOWN_TIMEOUT_MS: '0' };

/** Starts the built server on a free port (PORT=0) with the given environment and waits until it listens. */
export async function spawnServer(env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> {
  const launched = await launchNodeProcess(SERVER_ENTRY, {
    env: { PORT: '0', LOG_LEVEL: 'info', ...env },
    readyWhen: /Pet store listening on (\S+)/,
    timeoutMs,
  });
  return {
    ...launched,
    url: launched.ready[1]!,
    adminUrl: /^Admin API listening on (\S+)$/m.exec(launched.output())?.[1] ?? null,
    firstRunKey: /^\s+(pst_[0-9A-Za-z]{36})$/m.exec(launched.output())?.[1] ?? null,
  };
}

/** Runs the built admin CLI (`petstore ...`) as its own process. */
export const runCli = (args: string[], env: Record<string, string>): Promise<ProcessResult> => runNodeProcess(CLI_ENTRY, args, env);

/** Issues an Enterprise key through the CLI whose limits never get in the way, and returns its secret. */
export async function issueUnlimitedKey(databaseUrl: string): Promise<string> {
  const created = await runCli(
    ['keys', 'create', '--plan', 'enterprise', '--name', 'unlimited', '--per-minute', '1000000000', '--per-day', '1000000000000'],
    { DATABASE_URL: databaseUrl },
  );
  if (created.code !== 0) throw new Error(`petstore keys create failed: ${created.stderr}`);
  return created.stdout.trim();
}
