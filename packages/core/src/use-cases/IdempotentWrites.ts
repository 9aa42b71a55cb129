import { IdempotencyInProgressError, IdempotencyKeyReusedError } from '../errors/IdempotencyErrors.js';
import { ValidationError } from '../errors/ValidationError.js';
import type { Pet } from '../pet/Pet.js';
import type { Clock } from '../ports/Clock.js';
import type { IdempotencyStore } from '../ports/IdempotencyStore.js';
import { createHash } from 'node:crypto';

export interface IdempotencyOptions {
  /** How long a key and its result are kept. */
  retentionMs: number;
  /** How long a duplicate waits for the first request to finish before answering `idempotency_in_progress`. */
  waitForInFlightMs: number;
  /** A claim older than this is taken to belong to a crashed process and may be taken over. */
  staleAfterMs: number;
}

export const DEFAULT_IDEMPOTENCY: IdempotencyOptions = { retentionMs: 24 * 3600_000, waitForInFlightMs: 1_000, staleAfterMs: 60_000 };

export interface IdempotentResult {
  pet: Pet;
  /** True when an earlier request with the same key did the write, and this is its stored result. */
  replayed: boolean;
}

const POLL_MS = 10;
const PRINTABLE_ASCII = /^[\x20-\x7E]{1,255}$/;

/** The same JSON value gives the same text whatever the key order or spacing of the request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** Throws unless `key` is 1 to 255 printable ASCII characters. */
export function checkIdempotencyKey(key: string): void {
  if (!PRINTABLE_ASCII.test(key)) throw ValidationError.of('Idempotency-Key', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
}

/**
 * A write made safe to retry with an Idempotency-Key: the first request with a key does the write and stores its
 * result; a retry with the same key and the same request gets the stored pet back (`replayed`) and writes nothing.
 * The same key with another request is refused; a duplicate that arrives while the first is in flight waits for it
 * (briefly, on the clock), else is refused as in progress. A write that fails stores nothing under the key.
 */
export class IdempotentWrites {
  private nextPurge = 0;

  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
    private readonly options: IdempotencyOptions = DEFAULT_IDEMPOTENCY,
  ) {}

  /** `request`: what identifies the request (a checked body, and for a change the pet it changes). */
  async run(scope: string, key: string, request: unknown, write: () => Promise<Pet>): Promise<IdempotentResult> {
    const fingerprint = createHash('sha256').update(canonical(request)).digest('base64url');
    await this.purgeNowAndThen();

    const giveUpAt = this.clock.now().getTime() + this.options.waitForInFlightMs;
    for (;;) {
      const now = this.clock.now().getTime();
      const outcome = await this.store.claim({
        scope,
        key,
        fingerprint,
        now,
        expiresAt: now + this.options.retentionMs,
        staleAfter: now - this.options.staleAfterMs,
      });
      if (outcome.state === 'completed') return { pet: outcome.pet, replayed: true };
      if (outcome.state === 'mismatch') throw new IdempotencyKeyReusedError();
      if (outcome.state === 'claimed') break;
      if (now >= giveUpAt) throw new IdempotencyInProgressError();
      await this.clock.sleep(POLL_MS);
    }

    let pet: Pet;
    try {
      pet = await write();
    } catch (error) {
      await this.store.release(scope, key).catch(() => undefined);
      throw error;
    }
    // The write is done now: answering an error would tell the client nothing was stored and invite a duplicate. If
    // the record fails (the store went away meanwhile), retries see the claim in progress, then take it over after
    // `staleAfterMs`.
    await this.store.complete(scope, key, pet).catch(() => undefined);
    return { pet, replayed: false };
  }

  /** Expired keys are deleted at most once a minute, on the way of a request. */
  private async purgeNowAndThen(): Promise<void> {
    const now = this.clock.now().getTime();
    if (now < this.nextPurge) return;
    this.nextPurge = now + 60_000;
    await this.store.purgeExpired(now);
  }
}
