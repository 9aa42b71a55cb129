import { DomainError } from '@petstore/core';
import { redact } from '@petstore/persistence-typeorm';
import { ConfigError, loadConfig } from '../config.js';
import { closeContainer, createContainer } from '../container.js';
import { TOKENS } from '../tokens.js';
import type { AnyCliCommand, CliIo, CliOpener } from './CliCommand.js';
import { COMMANDS } from './commands/index.js';
import { joinNegativeValues, UsageError } from './flags.js';

export type { CliIo } from './CliCommand.js';

const KEYS_COMMANDS = COMMANDS.filter((command) => command.name.startsWith('keys ')).map((command) => command.name.slice('keys '.length));

const USAGE = `Usage:
${COMMANDS.map(({ help }) => `  ${help.replaceAll('\n', '\n  ')}`).join('\n')}

Uses DATABASE_URL (default sqlite:./data/petstore.db), DATABASE_POOL_MODE and, for keys usage and unban, the server's
Redis settings (REDIS_URL, REDIS_CLUSTER_NODES, or REDIS_SENTINELS and REDIS_SENTINEL_MASTER; REDIS_USERNAME,
REDIS_PASSWORD, REDIS_TLS and REDIS_SENTINEL_PASSWORD with the last two).
Changes are recorded in the audit trail with the actor "cli". Add --help to any command for its own help.`;

/** The command a command line names (`keys create ...`, `migrate`), and its arguments; a usage error otherwise. */
function commandOf(group: string, command: string | undefined, rest: string[]): { command: AnyCliCommand; args: string[] } {
  if (group === 'keys') {
    const found = COMMANDS.find(({ name }) => name === `keys ${command}`);
    if (found) return { command: found, args: rest };
    throw new UsageError(command === undefined ? `keys needs a command: ${KEYS_COMMANDS.join(', ')}` : `unknown keys command "${command}"`);
  }
  const found = COMMANDS.find(({ name }) => name === group);
  if (!found) throw new UsageError(`unknown command "${group}"`);
  return { command: found, args: command === undefined ? rest : [command, ...rest] };
}

/** Core names fields (perMinute); the CLI user typed flags (--per-minute). */
function inFlagTerms(text: string, cursorFlag: string): string {
  const flags: Record<string, string> = {
    perMinute: '--per-minute',
    perDay: '--per-day',
    expiresAt: '--expires-at',
    plan: '--plan',
    name: '--name',
    scopes: '--scopes',
    limit: '--limit',
    cursor: cursorFlag,
  };
  return text.replace(/\b(perMinute|perDay|expiresAt)\b|^(plan|name|scopes|limit|cursor)\b/g, (field) => flags[field]!);
}

/** `--help` anywhere: the command's own help, or the whole usage (exit 2 when the command is unknown). */
function help(group: string, command: string | undefined, io: CliIo): number {
  const name = group === 'keys' ? `keys ${command}` : group;
  const found = COMMANDS.find((candidate) => candidate.name === name);
  io.out(found ? found.help : USAGE);
  return group === 'keys' || found ? 0 : 2;
}

/**
 * The admin CLI: one command per file (`commands/`). Returns the exit code: 0 success, 1 a refused operation (unknown
 * id, invalid plan or limits), 2 a usage or configuration error.
 */
export async function runCli(argv: string[], env: Readonly<Record<string, string | undefined>>, io: CliIo): Promise<number> {
  let container: ReturnType<typeof createContainer> | undefined;
  let storeFailed = false;
  let cursorFlag = '--after';
  try {
    const [group, command, ...rest] = joinNegativeValues(argv);
    if (group === undefined || group === 'help' || group === '--help' || group === '-h') {
      io.out(USAGE);
      return group === undefined ? 2 : 0;
    }
    if (argv.includes('--help') || argv.includes('-h')) return help(group, command, io);
    const chosen = commandOf(group, command, rest);
    cursorFlag = chosen.command.cursorFlag ?? cursorFlag;
    // Only the stores matter here; server settings (PORT, ...) are not read.
    const config = loadConfig({
      DATABASE_URL: env['DATABASE_URL'],
      DATABASE_POOL_MODE: env['DATABASE_POOL_MODE'],
      REDIS_URL: env['REDIS_URL'],
      REDIS_CLUSTER_NODES: env['REDIS_CLUSTER_NODES'],
      REDIS_SENTINELS: env['REDIS_SENTINELS'],
      REDIS_SENTINEL_MASTER: env['REDIS_SENTINEL_MASTER'],
      REDIS_USERNAME: env['REDIS_USERNAME'],
      REDIS_PASSWORD: env['REDIS_PASSWORD'],
      REDIS_TLS: env['REDIS_TLS'],
      REDIS_SENTINEL_PASSWORD: env['REDIS_SENTINEL_PASSWORD'],
      LOG_LEVEL: 'silent',
    });
    const opened = (container = createContainer(config));
    const open: CliOpener = {
      config,
      petStore: () => opened.getAsync(TOKENS.PetStore),
      dataSource: () => opened.getAsync(TOKENS.DataSource),
    };
    return await chosen.command.execute(chosen.args, open, io);
  } catch (error) {
    if (error instanceof UsageError || String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
      io.err(`error: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      io.err(`error: ${error.message}`);
      return 2;
    }
    if (DomainError.is(error)) {
      const details = error.code === 'validation_error' ? error.details.map((d) => inFlagTerms(d.message, cursorFlag)) : [error.message];
      io.err(details.map((line) => `error: ${line}`).join('\n'));
      return 1;
    }
    // A database or Redis that cannot be reached or refuses the login (a system or driver error, which has a code):
    // one line, without a password a driver may quote.
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    if (container && typeof code === 'string' && typeof message === 'string') {
      storeFailed = true;
      io.err(`error: cannot use the database or Redis: ${redact(message)}`);
      return 1;
    }
    throw error;
  } finally {
    // After a store failed to open, closing it fails the same way: the command's own error is what counts.
    if (container) await closeContainer(container).catch((error: unknown) => (storeFailed ? undefined : Promise.reject(error)));
  }
}
