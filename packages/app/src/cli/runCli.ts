import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DEFAULT_GRACE_PERIOD_SECONDS, DomainError, type KeyView, type PetStore } from '@petstore/core';
import { ConfigError, loadConfig } from '../config.js';
import { closeContainer, createContainer } from '../container.js';
import { TOKENS } from '../tokens.js';
import { redact } from '@petstore/persistence-typeorm';
import {
  daysFlag,
  expiresAtFlag,
  graceFlag,
  joinNegativeValues,
  limitFlag,
  pageLimitFlag,
  refuseRepeatedFlags,
  scopesFlag,
  UsageError,
} from './flags.js';
import { auditTable, keyDetails, keyTable, usageTable } from './tables.js';

const DEFAULT_USAGE_DAYS = 30;

const HELP = {
  create: `petstore keys create --plan free|pro|business|enterprise [--name TEXT] [--per-minute N] [--per-day N]
                     [--scopes pets:read,pets:write] [--expires-at ISO-8601] [--json]
    Issues a key and prints its secret alone on stdout (shown only this once; only its hash is stored).
    Enterprise keys need both custom limits, whole numbers from 1, per-minute at most per-day.
    Scopes default to both; --expires-at takes a future date and time with its offset (2027-01-01T00:00:00Z).`,
  list: `petstore keys list [--limit N] [--after CURSOR] [--json]
    Keys oldest first, revoked ones included, with the limits in force, scopes, status and last use, a page at a
    time (--limit 1 to 100, default 20); prints the command for the next page when there is one.`,
  get: `petstore keys get ID [--json]
    One key: its settings, status, last use (at most 30 s behind), ban and rotation state. Never a secret.`,
  update: `petstore keys update ID [--name TEXT] [--plan PLAN] [--per-minute N --per-day N | --plan-limits]
                     [--scopes LIST] [--expires-at ISO-8601|never] [--disable|--enable] [--json]
    Changes the given settings only; --plan-limits drops the custom limits. Running servers apply it within
    KEY_CACHE_TTL_MS (2 s by default).`,
  rotate: `petstore keys rotate ID [--grace DURATION] [--json]
    Prints a new secret for the same key (plan, limits, scopes, quota and ban kept). The old secret keeps working
    for the grace period (0, 90s, 30m, 24h, 7d...; default 24h, at most 30d), then gets 401.`,
  revoke: `petstore keys revoke ID [--json]
    Revokes a key for good: running servers refuse it within KEY_CACHE_TTL_MS (2 s by default).`,
  unban: `petstore keys unban ID [--json]
    Lifts the key's rate-limit ban (its counts stay) in the servers' shared Redis: reads REDIS_URL (or
    REDIS_CLUSTER_NODES, or REDIS_SENTINELS and REDIS_SENTINEL_MASTER), like the servers. Without Redis each server
    keeps its bans in its own memory: exits 2 and changes nothing (use the admin API's unbanKey instead).`,
  usage: `petstore keys usage ID [--days N] [--json]
    The key's plan, each window's limit, use, remaining and reset, and its ban, counting nothing; then its last use
    and its requests per UTC day over the last N days (default ${DEFAULT_USAGE_DAYS}). Reads REDIS_URL (or
    REDIS_CLUSTER_NODES, or REDIS_SENTINELS and REDIS_SENTINEL_MASTER), like the servers: without Redis each server
    counts in its own memory.`,
  audit: `petstore keys audit [ID] [--limit N] [--before CURSOR] [--json]
    Every change made to keys (or to one), newest first: when, by whom (cli, admin-api), what, each field before
    and after. Never a secret.`,
  migrate: `petstore migrate
    Applies pending database migrations (the server also does at start).`,
} as const;

const USAGE = `Usage:
${Object.values(HELP)
  .map((text) => `  ${text.replaceAll('\n', '\n  ')}`)
  .join('\n')}

Uses DATABASE_URL (default sqlite:./data/petstore.db), DATABASE_POOL_MODE and, for keys usage and unban, the server's
Redis settings (REDIS_URL, REDIS_CLUSTER_NODES, or REDIS_SENTINELS and REDIS_SENTINEL_MASTER; REDIS_USERNAME,
REDIS_PASSWORD, REDIS_TLS and REDIS_SENTINEL_PASSWORD with the last two).
Changes are recorded in the audit trail with the actor "cli". Add --help to any command for its own help.`;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
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

function exactlyOneId(positionals: string[], command: string): string {
  if (positionals.length !== 1) throw new UsageError(`keys ${command} takes exactly one key id`);
  return positionals[0]!;
}

const JSON_OPTION = { json: { type: 'boolean' } } as const;

/** The command's flags (and --json) and its positional arguments; an unknown or repeated flag is a usage error. */
function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  const parsed = parseArgs({ args, options: { ...options, ...JSON_OPTION }, allowPositionals: true, strict: true, tokens: true });
  refuseRepeatedFlags(parsed.tokens);
  return parsed;
}

function noPositionals(positionals: string[]): void {
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
}

const asJson = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * The admin CLI. Returns the exit code: 0 success, 1 a refused operation (unknown id, invalid plan or limits),
 * 2 a usage or configuration error.
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
    if (argv.includes('--help') || argv.includes('-h')) {
      const topic =
        group === 'migrate' ? 'migrate' : group === 'keys' && command !== undefined && command in HELP ? (command as keyof typeof HELP) : null;
      io.out(topic ? HELP[topic] : USAGE);
      return group === 'keys' || group === 'migrate' ? 0 : 2;
    }
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
    container = createContainer(config);
    const opened = container;
    const petStore = (): Promise<PetStore> => opened.getAsync(TOKENS.PetStore);
    const warnWithoutRedis = () => {
      if (config.redis === null) {
        io.err(
          'warning: none of REDIS_URL, REDIS_CLUSTER_NODES and REDIS_SENTINELS is set: without Redis each server counts in its own memory, which this command cannot see.',
        );
      }
    };
    const showKey = (key: KeyView, json: boolean | undefined) => io.out(json ? asJson(key) : keyDetails(key));

    if (group === 'migrate') {
      const dataSource = await container.getAsync(TOKENS.DataSource);
      io.out(`Database schema is up to date (${dataSource.migrations.length} migration${dataSource.migrations.length === 1 ? '' : 's'}).`);
      return 0;
    }
    if (group !== 'keys') throw new UsageError(`unknown command "${group}"`);

    switch (command) {
      case 'create': {
        const { values, positionals } = parse(rest, {
          plan: { type: 'string' },
          name: { type: 'string' },
          'per-minute': { type: 'string' },
          'per-day': { type: 'string' },
          scopes: { type: 'string' },
          'expires-at': { type: 'string' },
        });
        noPositionals(positionals);
        if (values.plan === undefined) throw new UsageError('keys create needs --plan free|pro|business|enterprise');
        const input = {
          plan: values.plan,
          name: values.name,
          perMinute: limitFlag('--per-minute', values['per-minute']),
          perDay: limitFlag('--per-day', values['per-day']),
          scopes: scopesFlag(values.scopes),
          expiresAt: expiresAtFlag(values['expires-at'], false),
        };
        const issued = await (await petStore()).issueApiKey.execute(input, 'cli');
        io.out(values.json ? asJson({ ...issued.key, key: issued.secret }) : issued.secret);
        io.err(`Created ${issued.key.id} on the ${issued.key.plan} plan. The secret is shown only once.`);
        return 0;
      }
      case 'list': {
        const { values, positionals } = parse(rest, { limit: { type: 'string' }, after: { type: 'string' } });
        noPositionals(positionals);
        const page = await (await petStore()).listApiKeys.execute({ limit: pageLimitFlag(values.limit), cursor: values.after });
        if (values.json) {
          io.out(asJson(page));
        } else {
          io.out(keyTable(page.keys));
          if (page.nextCursor !== null) {
            io.err(`More keys: petstore keys list${values.limit === undefined ? '' : ` --limit ${values.limit}`} --after ${page.nextCursor}`);
          }
        }
        return 0;
      }
      case 'get': {
        const { values, positionals } = parse(rest, {});
        showKey(await (await petStore()).getApiKey.execute(exactlyOneId(positionals, 'get')), values.json);
        return 0;
      }
      case 'update': {
        const { values, positionals } = parse(rest, {
          name: { type: 'string' },
          plan: { type: 'string' },
          'per-minute': { type: 'string' },
          'per-day': { type: 'string' },
          'plan-limits': { type: 'boolean' },
          scopes: { type: 'string' },
          'expires-at': { type: 'string' },
          disable: { type: 'boolean' },
          enable: { type: 'boolean' },
        });
        const id = exactlyOneId(positionals, 'update');
        const perMinute = limitFlag('--per-minute', values['per-minute']);
        const perDay = limitFlag('--per-day', values['per-day']);
        if ((perMinute === undefined) !== (perDay === undefined)) throw new UsageError('--per-minute and --per-day go together: give both');
        if (values['plan-limits'] && perMinute !== undefined)
          throw new UsageError('--plan-limits drops the custom limits: give it without --per-minute and --per-day');
        if (values.disable && values.enable) throw new UsageError('give --disable or --enable, not both');
        const update = {
          name: values.name,
          plan: values.plan,
          perMinute: values['plan-limits'] ? null : perMinute,
          perDay: values['plan-limits'] ? null : perDay,
          scopes: scopesFlag(values.scopes),
          expiresAt: expiresAtFlag(values['expires-at'], true),
          disabled: values.disable ? true : values.enable ? false : undefined,
        };
        if (Object.values(update).every((value) => value === undefined)) {
          throw new UsageError(
            'keys update needs a setting to change: --name, --plan, --per-minute and --per-day, --plan-limits, --scopes, --expires-at, --disable or --enable',
          );
        }
        const key = await (await petStore()).updateApiKey.execute(id, update, 'cli');
        showKey(key, values.json);
        io.err(`Updated ${key.id}: running servers apply it within ${config.keyCacheTtlMs} ms.`);
        return 0;
      }
      case 'rotate': {
        const { values, positionals } = parse(rest, { grace: { type: 'string' } });
        const id = exactlyOneId(positionals, 'rotate');
        const gracePeriodSeconds = graceFlag(values.grace) ?? DEFAULT_GRACE_PERIOD_SECONDS;
        const issued = await (await petStore()).rotateApiKey.execute(id, { gracePeriodSeconds }, 'cli');
        io.out(values.json ? asJson({ ...issued.key, key: issued.secret }) : issued.secret);
        const old = gracePeriodSeconds === 0 ? 'the old secret no longer works' : `the old secret works until ${issued.key.previousSecretExpiresAt!}`;
        io.err(`Rotated ${issued.key.id}: ${old}. The new secret is shown only once.`);
        return 0;
      }
      case 'revoke': {
        const { values, positionals } = parse(rest, {});
        const { key, alreadyRevoked } = await (await petStore()).revokeApiKey.execute(exactlyOneId(positionals, 'revoke'), 'cli');
        if (alreadyRevoked) {
          io.err(`error: ${key.id} was already revoked at ${key.revokedAt!}; nothing changed.`);
          return 1;
        }
        io.out(values.json ? asJson(key) : `Revoked ${key.id} at ${key.revokedAt!}.`);
        return 0;
      }
      case 'unban': {
        const { values, positionals } = parse(rest, {});
        const id = exactlyOneId(positionals, 'unban');
        if (config.redis === null) {
          io.err(
            "error: keys unban needs the servers' Redis settings (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS): " +
              'without Redis each server keeps its bans in its own memory, out of this ' +
              "command's reach. Lift the ban with the server's admin API (POST /admin/v1/keys/ID/unban), or let it end.",
          );
          return 2;
        }
        const { key, wasBanned } = await (await petStore()).unbanApiKey.execute(id, 'cli');
        io.out(values.json ? asJson(key) : wasBanned ? `Lifted the ban on ${key.id}.` : `${key.id} was not banned; nothing to lift.`);
        return 0;
      }
      case 'usage': {
        const { values, positionals } = parse(rest, { days: { type: 'string' } });
        const id = exactlyOneId(positionals, 'usage');
        const days = daysFlag(values.days, DEFAULT_USAGE_DAYS);
        const store = await petStore();
        const today = store.clock.now().getTime();
        const from = new Date(today - (days - 1) * 86_400_000).toISOString().slice(0, 10);
        const [usage, history] = await Promise.all([store.getRateLimitUsage.execute(id), store.getApiKeyUsage.execute(id, { from })]);
        warnWithoutRedis();
        io.out(
          values.json
            ? asJson({
                keyId: usage.keyId,
                plan: usage.plan,
                windows: usage.windows,
                bannedUntil: usage.bannedUntil,
                lastUsedAt: history.lastUsedAt,
                days: history.days,
              })
            : usageTable(usage, history),
        );
        return 0;
      }
      case 'audit': {
        cursorFlag = '--before';
        const { values, positionals } = parse(rest, { limit: { type: 'string' }, before: { type: 'string' } });
        if (positionals.length > 1) throw new UsageError('keys audit takes at most one key id');
        const keyId = positionals[0];
        const page = await (await petStore()).listAuditEvents.execute({ keyId, limit: pageLimitFlag(values.limit), cursor: values.before });
        if (values.json) {
          io.out(asJson(page));
        } else {
          io.out(auditTable(page.events));
          if (page.nextCursor !== null) {
            const filters = `${keyId === undefined ? '' : ` ${keyId}`}${values.limit === undefined ? '' : ` --limit ${values.limit}`}`;
            io.err(`Older events: petstore keys audit${filters} --before ${page.nextCursor}`);
          }
        }
        return 0;
      }
      default:
        throw new UsageError(
          command === undefined
            ? 'keys needs a command: create, list, get, update, rotate, revoke, unban, usage or audit'
            : `unknown keys command "${command}"`,
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
