import { createClient } from '../createClient.js';
import type { ClientOptions } from '../options.js';
import type { Pet } from '../types.js';

/** One request as the fake service saw it. */
export interface LoggedRequest {
  sentAtMs: number;
  method: string;
  url: URL;
  headers: Headers;
  status?: number;
  code?: string;
  retryAfter?: number;
  answeredAtMs?: number;
}

let instances = 0;

type Failure = 'service_unavailable' | 'bad_gateway' | 'network_error' | 'hang' | 'lose_answer';

/**
 * The service's rules in memory, behind a `fetch`, for the client's unit tests (fake timers): per-minute fixed
 * windows aligned to the clock, 429 with `Retry-After` until the window resets, a ban after `banStrikes` requests
 * inside a `Retry-After`, the rate-limit headers, `Idempotency-Key` replays, keyset pages with `Link`. Failures can
 * be scripted per request. Every answer takes `latencyMs`.
 */
export class FakeService {
  readonly log: LoggedRequest[] = [];
  readonly pets: Pet[] = [];
  /** Failures for the next requests, in order (after admission, as the real service's dependencies fail). */
  readonly failures: Failure[] = [];
  private used = 0;
  private window = -1;
  private retryAfterUntilMs = 0;
  private strikes = 0;
  private bannedUntilMs = 0;
  private readonly replies = new Map<string, Pet>();
  /** Gates are shared per key process-wide: each fake service has its own key, so tests do not share one. */
  readonly apiKey = `pst_test${++instances}`;
  readonly baseUrl = 'https://petstore.test/v1';

  constructor(private readonly options: { perMinute: number; banStrikes?: number; banSeconds?: number; latencyMs?: number }) {}

  /** Requests another consumer of the key makes (another process): they count like the client's. */
  spend(requests: number): void {
    this.roll(Date.now());
    this.used += requests;
  }

  banFor(seconds: number): void {
    this.bannedUntilMs = Date.now() + seconds * 1000;
  }

  /** The most requests that were ever in flight at once. */
  maxInFlight(): number {
    const events = this.log.flatMap((r) => [
      [r.sentAtMs, 1],
      [r.answeredAtMs ?? Infinity, -1],
    ]);
    events.sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
    let now = 0;
    let max = 0;
    for (const [, delta] of events) max = Math.max(max, (now += delta!));
    return max;
  }

  readonly fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const entry: LoggedRequest = {
      sentAtMs: Date.now(),
      method: init.method ?? 'GET',
      url: new URL(String(input)),
      headers: new Headers(init.headers),
    };
    this.log.push(entry);
    await this.delay(init.signal);
    const failure = this.failures.shift();
    if (failure === 'network_error') throw new TypeError('fetch failed');
    if (failure === 'hang') {
      await new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
    }
    // A proxy in front of the service: its own page, no rate-limit headers.
    const response =
      failure === 'bad_gateway'
        ? new Response('<html>502 Bad Gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } })
        : this.answer(entry, init, failure);
    entry.status = response.status;
    entry.answeredAtMs = Date.now();
    if (failure === 'lose_answer') throw new TypeError('socket hang up');
    return response;
  };

  private delay(signal: AbortSignal | null | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, this.options.latencyMs ?? 5);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
  }

  private roll(now: number): void {
    const window = Math.floor(now / 60_000);
    if (window !== this.window) {
      this.window = window;
      this.used = 0;
    }
  }

  private answer(entry: LoggedRequest, init: RequestInit, failure: Failure | undefined): Response {
    const now = Date.now();
    this.roll(now);
    const resetMs = (this.window + 1) * 60_000;
    const headers = new Headers({
      'Content-Type': 'application/json',
      Date: new Date(now).toUTCString(),
      'X-Request-Id': entry.headers.get('X-Request-Id') ?? 'none',
    });
    const rateLimitHeaders = () => {
      const remaining = Math.max(0, this.options.perMinute - this.used);
      headers.set('X-RateLimit-Limit', String(this.options.perMinute));
      headers.set('X-RateLimit-Remaining', String(remaining));
      headers.set('X-RateLimit-Reset', String(resetMs / 1000));
      headers.set('RateLimit-Policy', `"minute";q=${this.options.perMinute};w=60`);
      headers.set('RateLimit', `"minute";r=${remaining};t=${Math.ceil((resetMs - now) / 1000)}`);
    };
    const error = (status: number, code: string, message: string, retryAfter?: number, details?: unknown) => {
      if (retryAfter !== undefined) headers.set('Retry-After', String(retryAfter));
      entry.code = code;
      entry.retryAfter = retryAfter;
      return new Response(JSON.stringify({ code, message, status, details }), { status, headers });
    };

    if (entry.headers.get('Authorization') !== `Bearer ${this.apiKey}`) return error(401, 'unauthorized', 'Missing or invalid API key.');
    if (now < this.bannedUntilMs) {
      rateLimitHeaders();
      return error(429, 'key_banned', 'The API key is temporarily banned.', Math.ceil((this.bannedUntilMs - now) / 1000));
    }
    if (this.used >= this.options.perMinute) {
      if (now < this.retryAfterUntilMs && ++this.strikes >= (this.options.banStrikes ?? 10)) {
        this.bannedUntilMs = now + (this.options.banSeconds ?? 900) * 1000;
        rateLimitHeaders();
        return error(429, 'key_banned', 'The API key is temporarily banned.', this.options.banSeconds ?? 900);
      }
      if (now >= this.retryAfterUntilMs) this.strikes = 0;
      this.retryAfterUntilMs = resetMs;
      rateLimitHeaders();
      return error(429, 'rate_limited', 'Rate limit exceeded.', Math.ceil((resetMs - now) / 1000));
    }
    this.used++;
    rateLimitHeaders();
    if (failure === 'service_unavailable') return error(503, 'service_unavailable', 'Service unavailable.', 5);
    return this.route(entry, init, headers, error);
  }

  private route(
    entry: LoggedRequest,
    init: RequestInit,
    headers: Headers,
    error: (status: number, code: string, message: string, retryAfter?: number, details?: unknown) => Response,
  ): Response {
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers });
    const { pathname, searchParams } = entry.url;
    if (entry.method === 'POST' && pathname === '/v1/pets') {
      const body = JSON.parse(String(init.body)) as Pet;
      if (!body.name) return error(400, 'validation_error', 'Invalid pet.', undefined, [{ field: 'name', message: 'must not be empty' }]);
      const key = entry.headers.get('Idempotency-Key');
      const replay = key === null ? undefined : this.replies.get(key);
      if (replay) return json(201, replay);
      const pet: Pet = { id: this.pets.length + 1, name: body.name, categoryId: body.categoryId, status: body.status ?? 'available' };
      this.pets.push(pet);
      if (key !== null) this.replies.set(key, pet);
      return json(201, pet);
    }
    if (entry.method === 'GET' && pathname === '/v1/pets') {
      const limit = Number(searchParams.get('limit') ?? 20);
      const after = Number(searchParams.get('cursor') ?? 0);
      const matching = this.pets.filter((p) => p.id > after && (!searchParams.get('status') || p.status === searchParams.get('status')));
      const page = matching.slice(0, limit);
      if (matching.length > limit) {
        const next = new URLSearchParams(searchParams);
        next.set('cursor', String(page.at(-1)!.id));
        headers.set('Link', `<https://elsewhere.example/v1/pets?${next}>; rel="next"`);
      }
      return json(200, page);
    }
    const match = /^\/v1\/pets\/(\d+)$/.exec(pathname);
    const pet = match ? this.pets.find((p) => p.id === Number(match[1])) : undefined;
    return pet ? json(200, pet) : error(404, 'not_found', 'No such pet.');
  }
}

/** A client of the fake service (its base URL, key and fetch), with any other options. */
export const clientOf = (service: FakeService, options: Partial<ClientOptions> = {}) =>
  createClient({ baseUrl: service.baseUrl, apiKey: service.apiKey, fetch: service.fetch, ...options });
