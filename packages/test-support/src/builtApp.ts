import { randomBytes } from 'node:crypto';
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
  /** The ADMIN_TOKEN it was started with, when its admin API listens. */
  adminToken: string | null;
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
  const adminUrl = /^Admin API listening on (\S+)$/m.exec(launched.output())?.[1] ?? null;
  return {
    ...launched,
    url: launched.ready[1]!,
    adminUrl,
    adminToken: adminUrl === null ? null : (env['ADMIN_TOKEN'] ?? null),
    firstRunKey: /^\s+(pst_[0-9A-Za-z]{36})$/m.exec(launched.output())?.[1] ?? null,
  };
}

/** Runs the built admin CLI (`petstore ...`) as its own process. */
export const runCli = (args: string[], env: Record<string, string>): Promise<ProcessResult> => runNodeProcess(CLI_ENTRY, args, env);

/**
 * Opens a server's admin API on a free port, with a random token: spread it into `spawnServer`'s environment to issue
 * keys through it (`issueKey`). A key issued through the admin API costs a request, one through the CLI a process.
 */
export const WITH_ADMIN_API: Readonly<Record<string, string>> = { ADMIN_TOKEN: randomBytes(32).toString('hex'), ADMIN_PORT: '0' };

export interface KeySettings {
  plan: 'free' | 'pro' | 'business' | 'enterprise';
  name?: string;
  perMinute?: number;
  perDay?: number;
  scopes?: string[];
  /** An RFC 3339 instant. */
  expiresAt?: string;
}

/** Issues a key through the admin API (`POST /admin/v1/keys`) of a server whose admin API listens: its id and secret. */
export async function issueKey(server: ServerProcess, settings: KeySettings): Promise<{ id: string; key: string }> {
  if (server.adminUrl === null || server.adminToken === null) throw new Error('issueKey needs a server started with ADMIN_TOKEN and ADMIN_PORT');
  const response = await fetch(`${server.adminUrl}/keys`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${server.adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(settings),
  });
  if (response.status !== 201) throw new Error(`POST /admin/v1/keys answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as { id: string; key: string };
}

/** An Enterprise key whose limits never get in the way. */
const UNLIMITED = { plan: 'enterprise', name: 'unlimited', perMinute: 1_000_000_000, perDay: 1_000_000_000_000 } as const;

/** Issues an Enterprise key whose limits never get in the way, through the server's admin API, and returns its secret. */
export async function issueUnlimitedKey(server: ServerProcess): Promise<string> {
  return (await issueKey(server, UNLIMITED)).key;
}

/** The same key, issued through the CLI in the database a server will use (or uses without an admin API). */
export async function issueUnlimitedKeyWithCli(databaseUrl: string): Promise<string> {
  const { plan, name, perMinute, perDay } = UNLIMITED;
  const created = await runCli(['keys', 'create', '--plan', plan, '--name', name, '--per-minute', String(perMinute), '--per-day', String(perDay)], {
    DATABASE_URL: databaseUrl,
  });
  if (created.code !== 0) throw new Error(`petstore keys create failed: ${created.stderr}`);
  return created.stdout.trim();
}
