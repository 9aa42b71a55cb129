import { PetstoreError } from './PetstoreError.js';
import type { BindingWindow, RateLimitState } from './rateLimitHeaders.js';

type GateWaitReason = 'rate_limited' | 'key_banned' | 'quota_exhausted';

/** What one answer taught about the key. */
export interface GateAnswer {
  receivedAtMs: number;
  /** The key's rate-limit headers (absent on 503s and network failures; a 401's describe the address, not the key). */
  rateLimit?: { state: RateLimitState; binding: BindingWindow } | undefined;
  /** A 429: how long the service asked to wait, and its error. */
  rejection?: { retryAfterMs: number; error: PetstoreError } | undefined;
}

export interface GateEntry {
  /** How long this call may still wait here before it is refused with the rate-limit error instead. */
  maxWaitMs: number;
  signal?: AbortSignal | undefined;
  /** Told once per wait of known length. */
  onWait?: ((reason: GateWaitReason, delayMs: number) => void) | undefined;
}

type Decision =
  | { kind: 'send' }
  /** Nothing may be sent before `untilMs`. */
  | { kind: 'wait'; untilMs: number; reason: GateWaitReason }
  /** Answers in flight decide (they bring the key's state); at the latest `untilMs`. */
  | { kind: 'hold'; untilMs: number };

interface Waiter {
  deadlineMs: number;
  notifiedUntilMs: number;
  entry: GateEntry;
  admit(): void;
  refuse(error: unknown): void;
}

/** Timers fire on time or late, but a reset computed from whole seconds is best not met to the millisecond. */
const MARGIN_MS = 20;

/**
 * One gate per API key, shared by every call in the process, that decides when a request may be sent:
 * - after a 429, nothing is sent until its `Retry-After` has passed (for a `key_banned`, until the ban ends);
 * - while the key's state is unknown (first call, or its window has reset) one request at a time, to learn it;
 * - then no more requests in flight than the binding window has `remaining`, and when that is used up, nothing
 *   until the window resets, so that even a burst of calls needs no 429 at all.
 * Calls wait in arrival order. A call that would have to wait longer than it may is refused at once with the
 * rate-limit error, without sending anything.
 */
export class RateLimitGate {
  /** The last rate-limit state an answer carried. */
  state: RateLimitState | null = null;
  private inFlight = 0;
  private binding: BindingWindow | null = null;
  private closure: { untilMs: number; reason: 'rate_limited' | 'key_banned'; error: PetstoreError } | null = null;
  private readonly queue: Waiter[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAtMs = Infinity;

  /** Resolves when the caller may send; the caller then reports the outcome with `leave`, exactly once. */
  enter(entry: GateEntry): Promise<void> {
    if (entry.signal?.aborted) return Promise.reject(entry.signal.reason);
    if (this.queue.length === 0 && this.decide(Date.now()).kind === 'send') {
      this.inFlight++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        this.remove(waiter);
        reject(entry.signal!.reason);
        this.pump();
      };
      const waiter: Waiter = {
        deadlineMs: Date.now() + entry.maxWaitMs,
        notifiedUntilMs: 0,
        entry,
        admit: () => {
          entry.signal?.removeEventListener('abort', onAbort);
          this.inFlight++;
          resolve();
        },
        refuse: (error) => {
          entry.signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      entry.signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
    });
  }

  /** A request let through by `enter` has its answer (or none: a network failure, a timeout, an abort). */
  leave(answer: GateAnswer | null): void {
    this.inFlight--;
    if (answer) this.learn(answer);
    this.pump();
  }

  private learn(answer: GateAnswer): void {
    if (answer.rateLimit) {
      this.state = answer.rateLimit.state;
      const seen = answer.rateLimit.binding;
      if (this.binding === null || seen.reset > this.binding.reset) this.binding = seen;
      else if (seen.reset === this.binding.reset) {
        // Within one window `remaining` only falls; an answer that arrives late may carry an older, higher count.
        this.binding = {
          ...this.binding,
          remaining: Math.min(this.binding.remaining, seen.remaining),
          resetsAtMs: Math.max(this.binding.resetsAtMs, seen.resetsAtMs),
        };
      }
    }
    if (answer.rejection) {
      const untilMs = answer.receivedAtMs + answer.rejection.retryAfterMs + MARGIN_MS;
      if (this.closure === null || untilMs > this.closure.untilMs) {
        this.closure = {
          untilMs,
          reason: answer.rejection.error.code === 'key_banned' ? 'key_banned' : 'rate_limited',
          error: answer.rejection.error,
        };
      }
      this.binding = null;
    }
  }

  private decide(now: number): Decision {
    if (this.closure) {
      if (now < this.closure.untilMs) return { kind: 'wait', untilMs: this.closure.untilMs, reason: this.closure.reason };
      this.closure = null;
    }
    if (this.binding && now >= this.binding.resetsAtMs) this.binding = null;
    if (this.binding === null) return this.inFlight === 0 ? { kind: 'send' } : { kind: 'hold', untilMs: Infinity };
    if (this.binding.remaining - this.inFlight > 0) return { kind: 'send' };
    const untilMs = this.binding.resetsAtMs + MARGIN_MS;
    return this.inFlight === 0 ? { kind: 'wait', untilMs, reason: 'quota_exhausted' } : { kind: 'hold', untilMs };
  }

  private pump(): void {
    const now = Date.now();
    let decision = this.decide(now);
    while (this.queue.length > 0 && decision.kind === 'send') {
      this.queue.shift()!.admit();
      decision = this.decide(now);
    }
    let wakeAtMs = decision.kind === 'send' ? Infinity : decision.untilMs;
    for (const waiter of [...this.queue]) {
      const cannotWait = decision.kind === 'wait' ? decision.untilMs > waiter.deadlineMs : now >= waiter.deadlineMs;
      if (cannotWait) {
        this.remove(waiter);
        waiter.refuse(this.refusal(decision, now));
        continue;
      }
      if (decision.kind === 'wait' && waiter.notifiedUntilMs !== decision.untilMs) {
        waiter.notifiedUntilMs = decision.untilMs;
        waiter.entry.onWait?.(decision.reason, decision.untilMs - now);
      }
      wakeAtMs = Math.min(wakeAtMs, waiter.deadlineMs);
    }
    this.wakeAt(this.queue.length === 0 ? Infinity : wakeAtMs);
  }

  /** The error for a call that may not wait as long as the gate stays shut. Nothing was sent for it. */
  private refusal(decision: Decision, now: number): PetstoreError {
    const untilMs = decision.kind === 'send' ? now : decision.untilMs;
    const retryAfter = Number.isFinite(untilMs) ? Math.max(1, Math.ceil((untilMs - MARGIN_MS - now) / 1000)) : undefined;
    const notSent = `Not sent: the key may send again in ${retryAfter ?? 'an unknown number of'} s, later than this call may wait (rateLimit.maxWaitMs).`;
    if (decision.kind === 'wait' && decision.reason !== 'quota_exhausted' && this.closure) {
      const { code, message } = this.closure.error;
      return new PetstoreError({ code, status: 429, message: `${message} ${notSent}`, retryAfter });
    }
    return new PetstoreError({ code: 'rate_limited', status: 429, message: `The key's rate limit is used up. ${notSent}`, retryAfter });
  }

  private remove(waiter: Waiter): void {
    const index = this.queue.indexOf(waiter);
    if (index >= 0) this.queue.splice(index, 1);
  }

  private wakeAt(atMs: number): void {
    if (atMs === this.timerAtMs) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAtMs = atMs;
    if (!Number.isFinite(atMs)) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAtMs = Infinity;
        this.pump();
      },
      Math.max(0, atMs - Date.now()),
    );
  }
}

const REGISTRY = Symbol.for('@petstore/client.rateLimitGates.v1');

/**
 * The gate of one key at one service, shared process-wide (on `globalThis`, so that two copies of this package, or
 * two clients created for the same key, still share it).
 */
export function gateFor(baseUrl: URL, apiKey: string): RateLimitGate {
  const global = globalThis as unknown as Record<symbol, Map<string, RateLimitGate> | undefined>;
  const gates = (global[REGISTRY] ??= new Map());
  const id = `${baseUrl.origin}${baseUrl.pathname}\n${apiKey}`;
  let gate = gates.get(id);
  if (gate === undefined) {
    gate = new RateLimitGate();
    gates.set(id, gate);
  }
  return gate;
}
