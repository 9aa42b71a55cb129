import { dayNumberOf, parseUtcDay, utcDayOf } from '../access/UtcDay.js';
import { ValidationError, type FieldProblem } from '../errors/ValidationError.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyStore } from '../ports/KeyStore.js';
import type { DailyUsage, KeyUsageStore, UtcDay } from '../ports/KeyUsageStore.js';
import { findKey } from './findKey.js';
import { MIN_KEY_USAGE_RETENTION_DAYS } from './KeyUsageRecorder.js';

/** The range asked for, as a transport receives it: `YYYY-MM-DD` UTC days, both included. */
export interface UsageRange {
  /** Default: 29 days before `to` (30 days in all). */
  from?: unknown;
  /** Default: today (UTC). */
  to?: unknown;
}

export interface KeyUsageReport {
  keyId: string;
  from: UtcDay;
  to: UtcDay;
  /** Every day of the range, oldest first, with 0s for a day without requests. */
  days: DailyUsage[];
  lastUsedAt: string | null;
}

const DEFAULT_DAYS = 30;
/** A range spans at most the retention promised, plus today. */
export const MAX_USAGE_RANGE_DAYS = MIN_KEY_USAGE_RETENTION_DAYS + 1;

function dayOf(field: 'from' | 'to', value: unknown, fallback: number, problems: FieldProblem[]): number {
  if (value === undefined) return fallback;
  const day = Array.isArray(value) ? null : parseUtcDay(value);
  if (day === null) problems.push({ field, message: `${field} must be a calendar day as YYYY-MM-DD (UTC)` });
  return day ?? fallback;
}

/**
 * A key's requests per UTC day (those counted against its quota, and those its rate limit refused) and its last
 * use, as flushed by every instance: at most a flush interval behind. Days are kept at least 90 days.
 */
export class GetApiKeyUsage {
  constructor(
    private readonly keys: KeyStore,
    private readonly usage: KeyUsageStore,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, range: Readonly<Record<string, unknown>> = {}): Promise<KeyUsageReport> {
    const key = await findKey(this.keys, id);
    const problems: FieldProblem[] = [];
    for (const field of Object.keys(range)) {
      if (field !== 'from' && field !== 'to') problems.push({ field, message: `${field} is not a known query parameter (use from, to)` });
    }
    const { from: rawFrom, to: rawTo } = range as UsageRange;
    const to = dayOf('to', rawTo, dayNumberOf(this.clock.now().getTime()), problems);
    const from = dayOf('from', rawFrom, to - (DEFAULT_DAYS - 1), problems);
    if (problems.length === 0 && from > to) problems.push({ field: 'from', message: 'from must not be after to' });
    if (problems.length === 0 && to - from + 1 > MAX_USAGE_RANGE_DAYS) {
      problems.push({ field: 'from', message: `a range spans at most ${MAX_USAGE_RANGE_DAYS} days` });
    }
    if (problems.length > 0) throw new ValidationError(problems);

    const [stored, lastUses] = await Promise.all([this.usage.dailyUsage(key.id, utcDayOf(from), utcDayOf(to)), this.usage.lastUsedAt([key.id])]);
    const counts = new Map(stored.map((usage) => [usage.day, usage]));
    const days: DailyUsage[] = [];
    for (let day = from; day <= to; day++) {
      const { requests = 0, limited = 0 } = counts.get(utcDayOf(day)) ?? {};
      days.push({ day: utcDayOf(day), requests, limited });
    }
    return { keyId: key.id, from: utcDayOf(from), to: utcDayOf(to), days, lastUsedAt: lastUses.get(key.id)?.toISOString() ?? null };
  }
}
