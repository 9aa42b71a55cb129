import type { UtcDay } from '../ports/KeyUsageStore.js';

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 UTC. */
export const dayNumberOf = (epochMs: number): number => Math.floor(epochMs / DAY_MS);

export const utcDayOf = (dayNumber: number): UtcDay => new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);

/** The day number of a `YYYY-MM-DD` calendar day, or null when it is not one. */
export function parseUtcDay(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) || utcDayOf(ms / DAY_MS) !== value ? null : ms / DAY_MS;
}
