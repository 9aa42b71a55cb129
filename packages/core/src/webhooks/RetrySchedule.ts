/**
 * The waits between attempts of a delivery, after the first (immediate) one: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 * 14 h, 20 h and 24 h, about three days in all (76 hours). Each wait is spread by up to ±10 % (jitter), so
 * deliveries that failed together are not all tried again at the same instant.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [5, 300, 1_800, 7_200, 18_000, 36_000, 50_400, 72_000, 86_400].map((s) => s * 1000);

const JITTER = 0.1;

/**
 * When to try again after attempt `attempt` (1 for the first) failed at `now`, or null when the schedule is over.
 * `random` returns a number in [0, 1).
 */
export function nextAttemptAt(now: Date, attempt: number, delaysMs: readonly number[], random: () => number): Date | null {
  const delay = delaysMs[attempt - 1];
  if (delay === undefined) return null;
  return new Date(now.getTime() + Math.round(delay * (1 + JITTER * (2 * random() - 1))));
}
