import { parseArgs } from 'node:util';
import { DomainError, type KeyView, type PetStore, type RateLimitUsage } from '@petstore/core';
import { ConfigError, loadConfig } from '../config.js';
import { closeContainer, createContainer } from '../container.js';
import { TOKENS } from '../tokens.js';

const HELP = {
  create: `petstore keys create --plan free|pro|business|enterprise [--name TEXT] [--per-minute N --per-day N]
    Issues a key and prints its secret alone on stdout (shown only this once; only its hash is stored).
    Enterprise keys need both custom limits, whole numbers from 1, per-minute at most per-day.`,
  list: `petstore keys list [--json]
    Every key, revoked ones included, with the limits in force for it (its plan's, or its custom ones).`,
  revoke: `petstore keys revoke ID
    Revokes a key for good: running servers refuse it within KEY_CACHE_TTL_MS (2 s by default).`,
  rotate: `petstore keys rotate ID
    Prints a new secret for the key; the old one stops working.`,
  usage: `petstore keys usage ID [--json]
    The key's plan, each window's limit, use, remaining and reset, and its ban. Counts nothing.
    Reads REDIS_URL, like the servers: without it each server counts in its own memory.`,
  migrate: `petstore migrate
    Applies pending database migrations (the server also does at start).`,
} as const;

const USAGE = `Usage:
${Object.values(HELP)
  .map((text) => `  ${text.replaceAll('\n', '\n  ')}`)
  .join('\n')}

Uses DATABASE_URL (default sqlite:./data/petstore.db) and, for keys usage, REDIS_URL, like the server.
Add --help to any command for its own help.`;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

class UsageError extends Error {}

/** Core names fields (perMinute); the CLI user typed flags (--per-minute). */
const FLAGS: Record<string, string> = { perMinute: '--per-minute', perDay: '--per-day', plan: '--plan', name: '--name' };
const inFlagTerms = (text: string) => text.replace(/\b(perMinute|perDay)\b|^(plan|name)\b/g, (field) => FLAGS[field]!);

/** A limit flag: a whole number from 1, or a usage error that names the flag and what was typed. */
function limitFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,15}$/.test(value) || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} must be a whole number from 1 (got "${value}")`);
  }
  return Number(value);
}

/** parseArgs refuses `--per-minute -1` as ambiguous; read it as the value it is, so the error can name it. */
function joinNegativeValues(args: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const next = args[i + 1];
    if (args[i]!.startsWith('--') && !args[i]!.includes('=') && next !== undefined && /^-[0-9.]/.test(next)) {
      joined.push(`${args[i]}=${next}`);
      i++;
    } else {
      joined.push(args[i]!);
    }
  }
  return joined;
}

function keyTable(keys: KeyView[]): string {
  const rows = keys.map((k) => [k.id, k.name || '-', k.plan, String(k.limits.perMinute), String(k.limits.perDay), k.createdAt, k.revokedAt ?? '-']);
  const header = ['ID', 'NAME', 'PLAN', 'PER-MINUTE', 'PER-DAY', 'CREATED', 'REVOKED'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const isoSeconds = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');

function usageTable(usage: RateLimitUsage): string {
  const header = ['WINDOW', 'LIMIT', 'USED', 'REMAINING', 'RESET'];
  const rows = usage.windows.map((w) => [w.name, String(w.limit), String(w.used), String(w.remaining), isoSeconds(w.reset)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const table = [header, ...rows].map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );
  const ban = usage.bannedUntil === null ? 'Not banned.' : `Banned until ${isoSeconds(usage.bannedUntil)}.`;
  return [`${usage.keyId} on the ${usage.plan} plan`, ...table, ban].join('\n');
}

/** Every key, a page at a time. */
async function allKeys(store: PetStore): Promise<KeyView[]> {
  const keys: KeyView[] = [];
  let cursor: string | null = null;
  do {
    const page = await store.listApiKeys.execute({ limit: 100, ...(cursor !== null && { cursor }) });
    keys.push(...page.keys);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return keys;
}

function exactlyOneId(positionals: string[], command: string): string {
  if (positionals.length !== 1) throw new UsageError(`keys ${command} takes exactly one key id`);
  return positionals[0]!;
}

/**
 * The admin CLI. Returns the exit code: 0 success, 1 a refused operation (unknown id, invalid plan or limits),
 * 2 a usage or configuration error.
 */
export async function runCli(argv: string[], env: Readonly<Record<string, string | undefined>>, io: CliIo): Promise<number> {
  let container: ReturnType<typeof createContainer> | undefined;
  try {
    const [group, command, ...rest] = joinNegativeValues(argv);
    if (group === undefined || group === 'help' || group === '--help' || group === '-h') {
      io.out(USAGE);
      return group === undefined ? 2 : 0;
    }
    if (argv.includes('--help') || argv.includes('-h')) {
      const topic =
        group === 'migrate' ? 'migrate' : group === 'keys' && command !== undefined && command in HELP ? (command as keyof typeof HELP) : null;
      io.out(topic ? HELP[topic] : USAGE);
      return group === 'keys' || group === 'migrate' ? 0 : 2;
    }
    // Only the stores matter here; server settings (PORT, ...) are not read.
    const config = loadConfig({ DATABASE_URL: env['DATABASE_URL'], REDIS_URL: env['REDIS_URL'], LOG_LEVEL: 'silent' });
    container = createContainer(config);

    if (group === 'migrate') {
      const dataSource = await container.getAsync(TOKENS.DataSource);
      io.out(`Database schema is up to date (${dataSource.migrations.length} migration${dataSource.migrations.length === 1 ? '' : 's'}).`);
      return 0;
    }
    if (group !== 'keys') throw new UsageError(`unknown command "${group}"`);

    switch (command) {
      case 'create': {
        const { values, positionals } = parseArgs({
          args: rest,
          options: { plan: { type: 'string' }, name: { type: 'string' }, 'per-minute': { type: 'string' }, 'per-day': { type: 'string' } },
          allowPositionals: true,
        });
        if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
        if (values.plan === undefined) throw new UsageError('keys create needs --plan free|pro|business|enterprise');
        const issued = await (
          await container.getAsync(TOKENS.PetStore)
        ).issueApiKey.execute(
          {
            plan: values.plan,
            name: values.name,
            perMinute: limitFlag('--per-minute', values['per-minute']),
            perDay: limitFlag('--per-day', values['per-day']),
          },
          'cli',
        );
        io.out(issued.secret);
        io.err(`Created ${issued.key.id} on the ${issued.key.plan} plan. The secret above is shown only once.`);
        return 0;
      }
      case 'list': {
        const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean' } } });
        const keys = await allKeys(await container.getAsync(TOKENS.PetStore));
        io.out(values.json ? JSON.stringify(keys, null, 2) : keyTable(keys));
        return 0;
      }
      case 'revoke': {
        const { key, alreadyRevoked } = await (await container.getAsync(TOKENS.PetStore)).revokeApiKey.execute(exactlyOneId(rest, 'revoke'), 'cli');
        if (alreadyRevoked) {
          io.err(`error: ${key.id} was already revoked at ${key.revokedAt!}; nothing changed.`);
          return 1;
        }
        io.out(`Revoked ${key.id} at ${key.revokedAt!}.`);
        return 0;
      }
      case 'rotate': {
        const issued = await (
          await container.getAsync(TOKENS.PetStore)
        ).rotateApiKey.execute(exactlyOneId(rest, 'rotate'), { gracePeriodSeconds: 0 }, 'cli');
        io.out(issued.secret);
        io.err(`Rotated ${issued.key.id}: the old secret no longer works. The new one above is shown only once.`);
        return 0;
      }
      case 'usage': {
        const { values, positionals } = parseArgs({ args: rest, options: { json: { type: 'boolean' } }, allowPositionals: true });
        const usage = await (await container.getAsync(TOKENS.PetStore)).getRateLimitUsage.execute(exactlyOneId(positionals, 'usage'));
        if (config.redisUrl === null) {
          io.err('warning: REDIS_URL is not set: without Redis each server counts in its own memory, which this command cannot see.');
        }
        io.out(
          values.json
            ? JSON.stringify({ keyId: usage.keyId, plan: usage.plan, windows: usage.windows, bannedUntil: usage.bannedUntil }, null, 2)
            : usageTable(usage),
        );
        return 0;
      }
      default:
        throw new UsageError(
          command === undefined ? 'keys needs a command: create, list, revoke, rotate or usage' : `unknown keys command "${command}"`,
        );
    }
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
      const details = error.code === 'validation_error' ? error.details.map((d) => inFlagTerms(d.message)) : [error.message];
      io.err(details.map((line) => `error: ${line}`).join('\n'));
      return 1;
    }
    throw error;
  } finally {
    if (container) await closeContainer(container);
  }
}
