import { aPetDraft } from '@petstore/core/testing';
import { eventsOfCreate } from '@petstore/core';
import type { DataSource } from 'typeorm';
import { TypeOrmIdempotencyStore } from '../TypeOrmIdempotencyStore.js';
import { TypeOrmPetRepository } from '../TypeOrmPetRepository.js';

/**
 * Stores one pet, then sends five pet creates and an idempotency claim while `server` is frozen, and thaws it.
 * Returns the pet stored before, the error code (or `settled`) of each stalled write, the repository and the claim
 * to try again, so a test can check that none of the stalled writes took effect.
 */
export async function writeDuringStall(dataSource: DataSource, server: { freeze(): void; thaw(): void }) {
  const pets = new TypeOrmPetRepository(dataSource);
  const idempotency = new TypeOrmIdempotencyStore(dataSource);
  const before = await pets.create(aPetDraft({ name: 'before' }), eventsOfCreate());
  const claim = () => {
    const now = Date.now();
    return idempotency.claim({ scope: 'key_stall', key: 'retry-me', fingerprint: 'f', now, expiresAt: now + 86_400_000, staleAfter: now - 60_000 });
  };
  server.freeze();
  let stalled: PromiseSettledResult<unknown>[];
  try {
    stalled = await Promise.allSettled([
      ...Array.from({ length: 5 }, (_, i) => pets.create(aPetDraft({ name: `stalled ${i}` }), eventsOfCreate())),
      claim(),
    ]);
  } finally {
    server.thaw();
  }
  const outcomes = stalled.map((s) => (s.status === 'rejected' ? (s.reason as { code?: string }).code : 'settled'));
  return { before, outcomes, pets, claim };
}
