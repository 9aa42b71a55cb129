import type { RetryPolicy } from './backoff.js';

export type WaitReason = 'rate_limited' | 'key_banned' | 'quota_exhausted' | 'service_unavailable' | 'network_error' | 'timeout';

/** Told to `onWait` before every wait of the client: at the key's gate, or before a retry. */
export interface WaitEvent {
  operation: string;
  /**
   * `rate_limited` / `key_banned`: the key got a 429 and nothing is sent until its `Retry-After`;
   * `quota_exhausted`: the last answer said the window is used up, so the client waits for its reset without asking;
   * `service_unavailable` (502, 503, 504), `network_error`, `timeout`: before a retry.
   */
  reason: WaitReason;
  delayMs: number;
  /** The attempt that comes after the wait (1 for the first). */
  attempt: number;
}

export interface ClientOptions {
  /** The service's base URL, ending in the version: `https://api.example.com/v1`. The key is sent nowhere else. */
  baseUrl: string;
  /** The API key (`pst_...`), sent as `Authorization: Bearer <key>`. */
  apiKey: string;
  /** Each attempt's time limit, from sending to the whole body read. Default 10 s. A timed-out attempt is retried. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  rateLimit?: {
    /**
     * The longest a call waits, in all, for the key's rate limit (`Retry-After` or the window's reset). A call that
     * would wait longer fails at once with the 429's error (`rate_limited` or `key_banned`) and `retryAfter`.
     * Default 2 minutes: a minute window is waited out, a ban (15 minutes) or a spent day window is surfaced.
     */
    maxWaitMs?: number;
  };
  /** Told of every wait (to log or meter it). Must not throw. */
  onWait?: (event: WaitEvent) => void;
  /** The `fetch` to use; default the platform's. */
  fetch?: typeof fetch;
}

/** Per call. */
export interface CallOptions {
  /** Aborts the call, its waits and retries included; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** This call's per-attempt time limit, instead of the client's. */
  timeoutMs?: number;
}

export interface UpdatePetOptions extends CallOptions {
  /**
   * Sent as `If-Match`: the change is made only if the animal still has this `ETag` (or is any existing animal,
   * with `*`); otherwise the call fails with `precondition_failed` and the error's `etag` is the current one.
   */
  ifMatch?: string;
  /** Sent as `Idempotency-Key` on every attempt of this change (default: a new random key per call). */
  idempotencyKey?: string;
}

export interface CreatePetOptions extends CallOptions {
  /**
   * Sent as `Idempotency-Key` on every attempt of this create, so that a retried create never makes two pets.
   * Default: a new random key per call. Pass your own (1-255 printable ASCII characters) to make a create safe
   * across restarts of your process as well; the service keeps it 24 hours.
   */
  idempotencyKey?: string;
}

export interface ResolvedOptions {
  baseUrl: URL;
  apiKey: string;
  timeoutMs: number;
  retry: RetryPolicy;
  maxRateLimitWaitMs: number;
  onWait: ((event: WaitEvent) => void) | undefined;
  fetch: typeof fetch;
}

const DEFAULTS = {
  timeoutMs: 10_000,
  retry: { maxAttempts: 5, maxElapsedMs: 60_000, baseDelayMs: 250, maxDelayMs: 10_000 },
  maxRateLimitWaitMs: 120_000,
} as const;

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0)) throw new TypeError(`${name} must be a number of 0 or more, got ${String(value)}`);
  return value;
}

/** Checks the options once, at `createClient`, so that a mistake shows there and not on the first call. */
export function resolveOptions(options: ClientOptions): ResolvedOptions {
  let baseUrl: URL;
  try {
    baseUrl = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`baseUrl must be an absolute URL such as https://api.example.com/v1, got ${JSON.stringify(options.baseUrl)}`);
  }
  if (baseUrl.protocol !== 'https:' && baseUrl.protocol !== 'http:') throw new TypeError(`baseUrl must be http or https, got ${baseUrl.protocol}`);
  baseUrl.pathname = baseUrl.pathname.replace(/\/+$/, '');
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') throw new TypeError('apiKey must be a non-empty string');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('no fetch: pass options.fetch on a platform without one');
  const retry = options.retry ?? {};
  return {
    baseUrl,
    apiKey: options.apiKey,
    timeoutMs: positive('timeoutMs', options.timeoutMs, DEFAULTS.timeoutMs),
    retry: {
      maxAttempts: Math.max(1, positive('retry.maxAttempts', retry.maxAttempts, DEFAULTS.retry.maxAttempts)),
      maxElapsedMs: positive('retry.maxElapsedMs', retry.maxElapsedMs, DEFAULTS.retry.maxElapsedMs),
      baseDelayMs: positive('retry.baseDelayMs', retry.baseDelayMs, DEFAULTS.retry.baseDelayMs),
      maxDelayMs: positive('retry.maxDelayMs', retry.maxDelayMs, DEFAULTS.retry.maxDelayMs),
    },
    maxRateLimitWaitMs: positive('rateLimit.maxWaitMs', options.rateLimit?.maxWaitMs, DEFAULTS.maxRateLimitWaitMs),
    onWait: options.onWait,
    // Called as a plain function: browsers throw "Illegal invocation" when `fetch` runs with another `this`.
    fetch: (input, init) => fetchImpl(input, init),
  };
}
