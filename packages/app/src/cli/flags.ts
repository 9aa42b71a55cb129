import { LIST_LIMIT, MAX_GRACE_PERIOD_SECONDS, MAX_RATE_LIMIT, MAX_USAGE_RANGE_DAYS, parseInstant, SCOPES } from '@petstore/core';

/** A command line the CLI refuses before doing anything: exit code 2, with the usage. */
export class UsageError extends Error {}

/** A limit flag: a whole number from 1 to MAX_RATE_LIMIT, or a usage error that names the flag and what was typed. */
export function limitFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,14}$/.test(value) || Number(value) > MAX_RATE_LIMIT) {
    throw new UsageError(`${flag} must be a whole number from 1 to ${MAX_RATE_LIMIT} (got "${value}")`);
  }
  return Number(value);
}

/** `--scopes pets:read,pets:write`: a comma-separated list of distinct known scopes. */
export function scopesFlag(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const scopes = value.split(',').map((scope) => scope.trim());
  if (scopes.some((scope) => !(SCOPES as readonly string[]).includes(scope)) || new Set(scopes).size !== scopes.length) {
    throw new UsageError(`--scopes must be a comma-separated list of distinct scopes among ${SCOPES.join(', ')} (got "${value}")`);
  }
  return scopes;
}

/**
 * `--expires-at`: an ISO 8601 date and time with its offset, on a real calendar day, passed on as typed (core says
 * whether it is in the future); `never` (where allowed) means no expiry.
 */
export function expiresAtFlag(value: string | undefined, allowNever: boolean): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'never' && allowNever) return null;
  if (parseInstant(value) === null) {
    throw new UsageError(
      `--expires-at must be an ISO 8601 date and time with its offset, such as 2027-01-01T00:00:00Z${allowNever ? ', or never' : ''} (got "${value}")`,
    );
  }
  return value;
}

/** `--limit N`: a page of a listing, from 1 to 100 keys or events. */
export function pageLimitFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = /^[0-9]{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= LIST_LIMIT.min && limit <= LIST_LIMIT.max)) {
    throw new UsageError(`--limit must be a whole number from ${LIST_LIMIT.min} to ${LIST_LIMIT.max} (got "${value}")`);
  }
  return limit;
}

/** A flag given twice would silently keep its last value: the command line is refused instead. */
export function refuseRepeatedFlags(tokens: readonly { kind: string; name?: string }[]): void {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined) continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} is given twice: give it once`);
    seen.add(token.name);
  }
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
const GRACE_MESSAGE = `--grace must be a duration from 0 to ${MAX_GRACE_PERIOD_SECONDS / 86_400}d, such as 0, 90s, 30m, 24h or 7d`;

/** `--grace 0|90s|30m|24h|7d`, in seconds; undefined when not given (the default applies). */
export function graceFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(?:0|([1-9][0-9]{0,6})([smhd]))$/.exec(value);
  const seconds = match === null ? Number.NaN : match[1] === undefined ? 0 : Number(match[1]) * UNIT_SECONDS[match[2]!]!;
  if (!(seconds <= MAX_GRACE_PERIOD_SECONDS)) throw new UsageError(`${GRACE_MESSAGE} (got "${value}")`);
  return seconds;
}

/** `--days N`: how many UTC days, today included, from 1 to what the usage history keeps. */
export function daysFlag(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const days = /^[1-9][0-9]{0,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!(days <= MAX_USAGE_RANGE_DAYS)) throw new UsageError(`--days must be a whole number from 1 to ${MAX_USAGE_RANGE_DAYS} (got "${value}")`);
  return days;
}

/** parseArgs refuses `--per-minute -1` as ambiguous; read it as the value it is, so the error can name it. */
export function joinNegativeValues(args: string[]): string[] {
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
