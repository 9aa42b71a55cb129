/** One rate-limit window of the key, as the last answer described it. */
export interface RateLimitWindow {
  /** `minute` or `day`. */
  name: string;
  /** Requests allowed in the window, when `RateLimit-Policy` said. */
  limit: number | undefined;
  /** Length of the window in seconds, when `RateLimit-Policy` said. */
  windowSeconds: number | undefined;
  remaining: number;
  /** Unix time (seconds) at which the window resets. */
  reset: number;
}

/** The last rate-limit state seen for a key: the binding window (`X-RateLimit-*`) and every window. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix time (seconds) at which the binding window resets (`X-RateLimit-Reset`). */
  reset: number;
  windows: RateLimitWindow[];
  /** When the answer that carried it arrived (the client's clock). */
  observedAt: Date;
}

/** What the gate needs from an answer: the binding window in the client's clock. */
export interface BindingWindow {
  remaining: number;
  /** `X-RateLimit-Reset` as sent: identifies the window across answers. */
  reset: number;
  /** When it resets, in the client's clock (ms). */
  resetsAtMs: number;
}

const integer = (value: string | null): number | undefined => (value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined);

/**
 * The service's clock at the answer, in whole seconds (from `Date`), so that reset times compare with the client's
 * clock without trusting the two clocks to agree. Rounded down, so a wait computed from it is never too short.
 */
function serverNowSeconds(headers: Headers, receivedAtMs: number): number {
  const date = Date.parse(headers.get('Date') ?? '');
  return Math.floor((Number.isNaN(date) ? receivedAtMs : date) / 1000);
}

/** Structured-field members such as `"minute";q=60;w=60` into name -> parameters. */
function parseMembers(header: string | null): Map<string, Record<string, number>> {
  const members = new Map<string, Record<string, number>>();
  for (const member of (header ?? '').split(',')) {
    const [rawName, ...params] = member.split(';').map((part) => part.trim());
    const name = rawName?.replace(/^"(.*)"$/, '$1');
    if (!name) continue;
    const values: Record<string, number> = {};
    for (const param of params) {
      const [key, value] = param.split('=');
      const parsed = integer(value ?? null);
      if (key && parsed !== undefined) values[key] = parsed;
    }
    members.set(name, values);
  }
  return members;
}

export interface ReadRateLimit {
  state: RateLimitState;
  binding: BindingWindow;
}

/** The rate-limit headers of an answer, or null when it carries none (a 503, a proxy's answer). */
export function readRateLimit(headers: Headers, receivedAtMs: number): ReadRateLimit | null {
  const limit = integer(headers.get('X-RateLimit-Limit'));
  const remaining = integer(headers.get('X-RateLimit-Remaining'));
  const reset = integer(headers.get('X-RateLimit-Reset'));
  if (limit === undefined || remaining === undefined || reset === undefined) return null;
  const now = serverNowSeconds(headers, receivedAtMs);
  const policies = parseMembers(headers.get('RateLimit-Policy'));
  const windows: RateLimitWindow[] = [];
  for (const [name, values] of parseMembers(headers.get('RateLimit'))) {
    if (values['r'] === undefined || values['t'] === undefined) continue;
    windows.push({
      name,
      limit: policies.get(name)?.['q'],
      windowSeconds: policies.get(name)?.['w'],
      remaining: values['r'],
      reset: now + values['t'],
    });
  }
  return {
    state: { limit, remaining, reset, windows, observedAt: new Date(receivedAtMs) },
    binding: { remaining, reset, resetsAtMs: receivedAtMs + Math.max(0, reset - now) * 1000 },
  };
}

/** `Retry-After` (seconds, or an HTTP date) as milliseconds from the answer's arrival; undefined when absent. */
export function readRetryAfterMs(headers: Headers, receivedAtMs: number): number | undefined {
  const value = headers.get('Retry-After');
  if (value === null) return undefined;
  const seconds = integer(value);
  if (seconds !== undefined) return seconds * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - serverNowSeconds(headers, receivedAtMs) * 1000);
}
