import { createHash } from 'node:crypto';
import { IdempotencyInProgressError, IdempotencyKeyReusedError } from '../errors/IdempotencyErrors.js';
import { ValidationError } from '../errors/ValidationError.js';
import type { NewPet, Pet } from '../pet/Pet.js';
import { draftOf, parseNewPet } from '../pet/parseNewPet.js';
import type { Clock } from '../ports/Clock.js';
import type { IdempotencyStore } from '../ports/IdempotencyStore.js';
import type { PetRepository } from '../ports/PetRepository.js';

export interface IdempotentCreateInput {
  newPet: NewPet;
  /** The API key id the idempotency key belongs to. */
  scope: string;
  idempotencyKey: string;
}

export interface IdempotentCreateResult {
  pet: Pet;
  /** True when the pet was created by an earlier request with the same key, and this is its stored result. */
  replayed: boolean;
}

export interface IdempotencyOptions {
  /** How long a key and its result are kept. */
  retentionMs: number;
  /** How long a duplicate waits for the first request to finish before answering `idempotency_in_progress`. */
  waitForInFlightMs: number;
  /** A claim older than this is taken to belong to a crashed process and may be taken over. */
  staleAfterMs: number;
}

export const DEFAULT_IDEMPOTENCY: IdempotencyOptions = { retentionMs: 24 * 3600_000, waitForInFlightMs: 1_000, staleAfterMs: 60_000 };

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

/**
 * CreatePet made safe to retry: the first request with an Idempotency-Key creates the pet and stores it; a retry
 * with the same key and the same body gets the stored pet back (`replayed`) and creates nothing. The same key with
 * another body is refused; a duplicate that arrives while the first is in flight waits for it (briefly), else is
 * refused as in progress. Invalid bodies are rejected before anything is stored under the key.
 */
export class CreatePetIdempotently {
  private nextPurge = 0;

  constructor(
    private readonly pets: PetRepository,
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
    private readonly options: IdempotencyOptions = DEFAULT_IDEMPOTENCY,
  ) {}

  async execute({ newPet, scope, idempotencyKey }: IdempotentCreateInput): Promise<IdempotentCreateResult> {
    if (!PRINTABLE_ASCII.test(idempotencyKey)) {
      throw ValidationError.of('Idempotency-Key', 'Idempotency-Key must be 1 to 255 printable ASCII characters');
    }
    const checked = parseNewPet(newPet);
    const fingerprint = createHash('sha256').update(canonical(checked)).digest('base64url');
    await this.purgeNowAndThen();

    const giveUpAt = this.clock.now().getTime() + this.options.waitForInFlightMs;
    for (;;) {
      const now = this.clock.now().getTime();
      const outcome = await this.store.claim({
        scope,
        key: idempotencyKey,
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
      pet = await this.pets.create(draftOf(checked));
    } catch (error) {
      await this.store.release(scope, idempotencyKey).catch(() => undefined);
      throw error;
    }
    // The pet exists now: answering an error would tell the client nothing was stored and invite a duplicate. If
    // the record fails (the store went away meanwhile), retries see the claim in progress, then take it over after
    // `staleAfterMs`.
    await this.store.complete(scope, idempotencyKey, pet).catch(() => undefined);
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
