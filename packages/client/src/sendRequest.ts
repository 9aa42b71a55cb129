import { retryDelayMs } from './backoff.js';
import type { CallOptions, ResolvedOptions, WaitReason } from './options.js';
import { PetstoreError, type PetstoreErrorDetail } from './PetstoreError.js';
import { readRateLimit, readRetryAfterMs } from './rateLimitHeaders.js';
import type { GateAnswer, GateEntry } from './RateLimitGate.js';
import { randomId } from './randomId.js';
import { sleep } from './sleep.js';

export interface RequestSpec {
  operation: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Relative to the base URL: `/pets`. */
  path: string;
  query?: URLSearchParams;
  body?: unknown;
  /** The body's media type; default `application/json`. */
  contentType?: string;
  headers?: Record<string, string>;
  /**
   * For a request that spends no quota and is answered during a ban (a usage endpoint such as `GET /rate_limit`):
   * it is not held at the key's gate, and a 429 is returned to the caller instead of waited out.
   */
  bypassGate?: boolean;
  /**
   * For a request that must not take effect twice and carries nothing to make a repeat harmless (the admin API's
   * createKey and rotateKey): sent once, its failure returned as it is, never retried.
   */
  once?: boolean;
}

export interface Answer<T> {
  body: T;
  headers: Headers;
}

/** What `sendRequest` needs of a gate (`RateLimitGate`). */
export interface Gate {
  enter(entry: GateEntry): Promise<void>;
  leave(answer: GateAnswer | null): void;
}

/** For requests that bypass the key's gate: lets everything through at once. */
export const OPEN_GATE: Gate = {
  enter: ({ signal }) => (signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve()),
  leave: () => undefined,
};

/** Gateway and availability failures: the request did not take effect and may be sent again. */
const RETRYABLE_STATUSES = new Set([502, 503, 504]);

type Attempt =
  { kind: 'answer'; response: Response; text: string; receivedAtMs: number } | { kind: 'failure'; code: 'network_error' | 'timeout'; cause: unknown };

/** One HTTP exchange, body included, bounded by the attempt's time limit and the caller's signal. */
async function attemptOnce(
  options: ResolvedOptions,
  url: URL,
  init: RequestInit,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await options.fetch(url, { ...init, signal: controller.signal });
    const text = await response.text();
    return { kind: 'answer', response, text, receivedAtMs: Date.now() };
  } catch (cause) {
    if (signal?.aborted) throw signal.reason;
    return { kind: 'failure', code: timedOut ? 'timeout' : 'network_error', cause };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function isErrorBody(value: unknown): value is { code: string; message: string; details?: PetstoreErrorDetail[] } {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return typeof body['code'] === 'string' && typeof body['message'] === 'string';
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorOf(answer: Extract<Attempt, { kind: 'answer' }>, requestId: string, retryAfterMs: number | undefined): PetstoreError {
  const body = parseJson(answer.text);
  const common = {
    status: answer.response.status,
    requestId: answer.response.headers.get('X-Request-Id') ?? requestId,
    retryAfter: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
    etag: answer.response.headers.get('ETag') ?? undefined,
  };
  if (isErrorBody(body))
    return new PetstoreError({ ...common, code: body.code as PetstoreError['code'], message: body.message, details: body.details });
  return new PetstoreError({ ...common, code: 'unexpected_response', message: `HTTP ${answer.response.status} without an Error body` });
}

function failureError(failure: Extract<Attempt, { kind: 'failure' }>, requestId: string, timeoutMs: number): PetstoreError {
  const message =
    failure.code === 'timeout'
      ? `No complete answer within ${timeoutMs} ms`
      : `The request did not reach the service or its answer was lost (${failure.cause instanceof Error ? failure.cause.message : String(failure.cause)})`;
  return new PetstoreError({ code: failure.code, status: 0, message, requestId, cause: failure.cause });
}

/**
 * Sends one logical request: through the key's gate, with a time limit per attempt, retrying 502/503/504, network
 * failures and timeouts with backoff (bounded in attempts and in total time), and waiting out 429s at the gate.
 * Every attempt carries the same `X-Request-Id` (and whatever headers the spec gives, such as `Idempotency-Key`).
 */
export async function sendRequest<T>(options: ResolvedOptions, keyGate: Gate, spec: RequestSpec, call: CallOptions = {}): Promise<Answer<T>> {
  const { signal } = call;
  const gate = spec.bypassGate ? OPEN_GATE : keyGate;
  const timeoutMs = call.timeoutMs ?? options.timeoutMs;
  const startedAtMs = Date.now();
  const requestId = randomId();
  const url = new URL(`${options.baseUrl.href.replace(/\/$/, '')}${spec.path}`);
  if (spec.query) url.search = spec.query.toString();
  const headers: Record<string, string> = {
    Authorization: `Bearer ${options.apiKey}`,
    Accept: 'application/json',
    'X-Request-Id': requestId,
    ...spec.headers,
  };
  if (spec.body !== undefined) headers['Content-Type'] = spec.contentType ?? 'application/json';
  const init: RequestInit = { method: spec.method, headers, body: spec.body === undefined ? null : JSON.stringify(spec.body) };

  let rateLimitWaitLeftMs = options.maxRateLimitWaitMs;
  let sent = 0;
  let failures = 0;
  const notify = (reason: WaitReason, delayMs: number) => options.onWait?.({ operation: spec.operation, reason, delayMs, attempt: sent + 1 });

  for (;;) {
    const enteredAtMs = Date.now();
    await gate.enter({ maxWaitMs: rateLimitWaitLeftMs, signal, onWait: notify });
    rateLimitWaitLeftMs = Math.max(0, rateLimitWaitLeftMs - (Date.now() - enteredAtMs));
    sent++;
    let attempt: Attempt;
    try {
      attempt = await attemptOnce(options, url, init, timeoutMs, signal);
    } catch (abortReason) {
      gate.leave(null);
      throw abortReason;
    }

    let error: PetstoreError;
    let retryAfterMs: number | undefined;
    if (attempt.kind === 'failure') {
      gate.leave(null);
      error = failureError(attempt, requestId, timeoutMs);
    } else {
      const { response, receivedAtMs } = attempt;
      // A 401's rate-limit headers describe the caller's address (failed authentications), not the key.
      const rateLimit = response.status === 401 ? undefined : (readRateLimit(response.headers, receivedAtMs) ?? undefined);
      retryAfterMs = readRetryAfterMs(response.headers, receivedAtMs);
      if (response.ok) {
        gate.leave({ receivedAtMs, rateLimit });
        // 204 No Content (a deletion) has no body to read.
        const body = response.status === 204 ? null : parseJson(attempt.text);
        if (body === undefined)
          throw new PetstoreError({ code: 'unexpected_response', status: response.status, message: 'The answer is not JSON', requestId });
        return { body: body as T, headers: response.headers };
      }
      error = errorOf(attempt, requestId, retryAfterMs);
      if (response.status === 429) {
        const waitMs = retryAfterMs ?? (rateLimit ? rateLimit.binding.resetsAtMs - receivedAtMs : 1000);
        gate.leave({ receivedAtMs, rateLimit, rejection: { retryAfterMs: waitMs, error } });
        if (spec.bypassGate || waitMs > rateLimitWaitLeftMs) throw error;
        continue;
      }
      gate.leave({ receivedAtMs, rateLimit });
      if (!RETRYABLE_STATUSES.has(response.status)) throw error;
    }

    failures++;
    if (spec.once || failures >= options.retry.maxAttempts) throw error;
    const delayMs = retryDelayMs(failures, options.retry, retryAfterMs);
    if (Date.now() + delayMs - startedAtMs > options.retry.maxElapsedMs) throw error;
    notify(error.code === 'network_error' || error.code === 'timeout' ? error.code : 'service_unavailable', delayMs);
    await sleep(delayMs, signal);
  }
}
