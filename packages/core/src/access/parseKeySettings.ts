import type { FieldProblem } from '../errors/ValidationError.js';
import { codePointCount, displayedTextProblem } from '../input/displayedText.js';
import { integerLiteralProblems, type NumberLiterals } from '../input/integerLiterals.js';
import { limitsOf, type LimitOverrides } from './ApiKey.js';
import { isPlan, MAX_RATE_LIMIT, PLANS, type Plan } from './Plan.js';
import { isScope, SCOPES, type Scope } from './Scope.js';

/** The settings of a key an operator chooses, as validated values; an absent property was not given. */
export interface KeySettings {
  name?: string;
  plan?: Plan;
  /** null: the plan's limit. */
  perMinute?: number | null;
  perDay?: number | null;
  scopes?: Scope[];
  expiresAt?: Date | null;
  disabled?: boolean;
}

export type KeySettingName = keyof KeySettings;

/** The longest key name, in Unicode code points (what JSON Schema's `maxLength` counts); it may be empty. */
export const KEY_NAME_MAX = 100;
const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

const LIMIT_FIELDS: ReadonlySet<string> = new Set(['perMinute', 'perDay']);
const isLimit = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_RATE_LIMIT;

/** An ISO 8601 date and time with its offset (`2027-01-01T00:00:00Z`), on a real calendar day; else null. */
export function parseInstant(value: string): Date | null {
  const match = ISO_INSTANT.exec(value);
  if (!match) return null;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, offsetHours = 0, offsetMinutes = 0] = match
    .slice(1)
    .map((part) => Number(part ?? 0));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const valid =
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    offsetHours <= 23 &&
    offsetMinutes <= 59;
  return valid ? new Date(value) : null;
}

type Parsed = { valid: true; value: unknown } | { valid: false; message: string };
const valid = (value: unknown): Parsed => ({ valid: true, value });
const invalid = (message: string): Parsed => ({ valid: false, message });

/** Each setting's parser. */
const PARSERS: Record<KeySettingName, (value: unknown, now: Date) => Parsed> = {
  name: (value) => {
    if (typeof value !== 'string' || codePointCount(value) > KEY_NAME_MAX)
      return invalid(`name must be text of at most ${KEY_NAME_MAX} characters (Unicode code points)`);
    const problem = displayedTextProblem('name', value);
    return problem === null ? valid(value) : invalid(problem);
  },
  plan: (value) => (isPlan(value) ? valid(value) : invalid(`plan must be one of ${PLANS.join(', ')}`)),
  perMinute: (value) =>
    value === null || isLimit(value)
      ? valid(value)
      : invalid(`perMinute must be a whole number from 1 to ${MAX_RATE_LIMIT}, or null for the plan's limit`),
  perDay: (value) =>
    value === null || isLimit(value)
      ? valid(value)
      : invalid(`perDay must be a whole number from 1 to ${MAX_RATE_LIMIT}, or null for the plan's limit`),
  scopes: (value) =>
    Array.isArray(value) && value.length > 0 && value.every(isScope) && new Set(value).size === value.length
      ? valid(SCOPES.filter((scope) => value.includes(scope)))
      : invalid(`scopes must be a non-empty list of distinct scopes among ${SCOPES.join(', ')}`),
  expiresAt: (value, now) => {
    if (value === null) return valid(null);
    const instant = typeof value === 'string' ? parseInstant(value) : null;
    if (instant === null) return invalid('expiresAt must be an ISO 8601 date and time with its offset (2027-01-01T00:00:00Z), or null for no expiry');
    return instant.getTime() > now.getTime() ? valid(instant) : invalid(`expiresAt must be in the future (it is now ${now.toISOString()})`);
  },
  disabled: (value) => (typeof value === 'boolean' ? valid(value) : invalid('disabled must be true or false')),
};

/**
 * Validates the settings `input` gives, among `allowed`. A property whose value is undefined counts as not given;
 * any other property is a problem, named. `numberLiterals` (the JSON text of top-level numbers, when the transport
 * has it) lets it refuse a limit written `1.0` or `1e1`. Returns what is valid and every problem found.
 */
export function parseKeySettings(
  input: unknown,
  allowed: readonly KeySettingName[],
  now: Date,
  numberLiterals: NumberLiterals = new Map(),
): { settings: KeySettings; problems: FieldProblem[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { settings: {}, problems: [{ field: 'body', message: 'the settings must be an object' }] };
  }
  const settings: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  for (const [field, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (!(allowed as readonly string[]).includes(field)) {
      problems.push({ field, message: `${field} is not a setting that can be given here (use ${allowed.join(', ')})` });
      continue;
    }
    const parsed = PARSERS[field as KeySettingName](value, now);
    if (parsed.valid) settings[field] = parsed.value;
    else problems.push({ field, message: parsed.message });
  }
  for (const problem of integerLiteralProblems(numberLiterals, LIMIT_FIELDS)) {
    if (Object.hasOwn(settings, problem.field)) {
      delete settings[problem.field];
      problems.push(problem);
    }
  }
  return { settings, problems };
}

/**
 * The limit rules on a key's plan and overrides together: Enterprise needs both overrides (its plan has no limits of
 * its own), and the per-minute limit in force must not exceed the per-day one.
 */
export function limitProblems(plan: Plan, overrides: LimitOverrides): FieldProblem[] {
  if (plan === 'enterprise') {
    const missing = (['perMinute', 'perDay'] as const).filter((field) => overrides[field] === null);
    if (missing.length > 0) {
      return missing.map((field) => ({ field, message: `${field} is required for enterprise keys and must be a positive integer` }));
    }
  }
  const { perMinute, perDay } = limitsOf({ plan, limitOverrides: overrides });
  if (perMinute <= perDay) return [];
  const source = (override: number | null) => (override === null ? `, the ${plan} plan's` : '');
  return [
    {
      field: overrides.perMinute === null ? 'perDay' : 'perMinute',
      message: `perMinute (${perMinute}${source(overrides.perMinute)}) must not exceed perDay (${perDay}${source(overrides.perDay)}): a day holds every minute`,
    },
  ];
}
