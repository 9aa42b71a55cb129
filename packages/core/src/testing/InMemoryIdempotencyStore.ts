import type { Pet } from '../pet/Pet.js';
import type { IdempotencyClaim, IdempotencyOutcome, IdempotencyStore } from '../ports/IdempotencyStore.js';

interface IdempotencyRecord {
  fingerprint: string;
  pet: Pet | null;
  claimedAt: number;
  expiresAt: number;
}

export class InMemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, IdempotencyRecord>();

  claim({ scope, key, fingerprint, now, expiresAt, staleAfter }: IdempotencyClaim): Promise<IdempotencyOutcome> {
    const id = `${scope}\n${key}`;
    const record = this.records.get(id);
    if (!record || record.expiresAt <= now || (record.pet === null && record.claimedAt < staleAfter)) {
      this.records.set(id, { fingerprint, pet: null, claimedAt: now, expiresAt });
      return Promise.resolve({ state: 'claimed' });
    }
    if (record.fingerprint !== fingerprint) return Promise.resolve({ state: 'mismatch' });
    return Promise.resolve(record.pet === null ? { state: 'in_progress' } : { state: 'completed', pet: { ...record.pet } });
  }

  complete(scope: string, key: string, pet: Pet): Promise<void> {
    const record = this.records.get(`${scope}\n${key}`);
    if (record) record.pet = { ...pet };
    return Promise.resolve();
  }

  release(scope: string, key: string): Promise<void> {
    this.records.delete(`${scope}\n${key}`);
    return Promise.resolve();
  }

  purgeExpired(now: number): Promise<number> {
    let purged = 0;
    for (const [id, record] of this.records) {
      if (record.expiresAt <= now) {
        this.records.delete(id);
        purged++;
      }
    }
    return Promise.resolve(purged);
  }

  /** How many keys are remembered, for tests. */
  size(): number {
    return this.records.size;
  }
}
