import type { CountedWindow } from '../ports/RateLimitStore.js';
import { WINDOW_SECONDS, type WindowName } from './RateLimitState.js';

/** Requests allowed per window; a window left out is not limited. */
export type WindowLimits = Partial<Record<WindowName, number>>;

const WINDOW_ORDER: readonly WindowName[] = ['minute', 'day'];

/** The windows in force at `now`, aligned to the UTC clock: a minute resets at the next whole minute, a day at 00:00 UTC. */
export function countedWindows(now: number, limits: WindowLimits): CountedWindow[] {
  const windows: CountedWindow[] = [];
  for (const name of WINDOW_ORDER) {
    const limit = limits[name];
    if (limit === undefined) continue;
    const size = WINDOW_SECONDS[name] * 1000;
    const start = Math.floor(now / size) * size;
    windows.push({ name, start, resetAt: start + size, limit });
  }
  return windows;
}
