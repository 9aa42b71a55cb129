export type WindowName = 'minute' | 'day';

export const WINDOW_SECONDS: Readonly<Record<WindowName, number>> = { minute: 60, day: 86_400 };

export interface WindowState {
  name: WindowName;
  limit: number;
  remaining: number;
  /** Unix seconds at which this window resets. */
  reset: number;
}

/**
 * What the rate-limit headers show: `limit`, `remaining` and `reset` of the binding window (the one with fewer
 * requests remaining; on a tie the one that resets later), and every window for the IETF draft headers.
 */
export interface RateLimitState {
  limit: number;
  remaining: number;
  reset: number;
  windows: readonly WindowState[];
}

export function bindingWindow(windows: readonly WindowState[]): WindowState {
  let binding = windows[0];
  if (!binding) throw new Error('a rate limit needs at least one window');
  for (const window of windows.slice(1)) {
    if (window.remaining < binding.remaining || (window.remaining === binding.remaining && window.reset > binding.reset)) {
      binding = window;
    }
  }
  return binding;
}

/** The state with one request given back in every window (never above a window's limit). */
export function withOneGivenBack(state: RateLimitState): RateLimitState {
  const windows = state.windows.map((window) => ({ ...window, remaining: Math.min(window.limit, window.remaining + 1) }));
  const binding = bindingWindow(windows);
  return { limit: binding.limit, remaining: binding.remaining, reset: binding.reset, windows };
}
