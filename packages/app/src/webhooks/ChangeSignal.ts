import type { Pet, PetRepository } from '@petstore/core';

/** Tells whoever listens that this process committed a change (the webhook worker, which then runs at once). */
export class ChangeSignal {
  private listener: (() => void) | null = null;

  listen(listener: () => void): void {
    this.listener = listener;
  }

  notify(): void {
    this.listener?.();
  }
}

/** `pets`, notifying `signal` after each create or update it committed. */
export function signallingChanges(pets: PetRepository, signal: ChangeSignal): PetRepository {
  const changed = (pet: Pet | null) => {
    if (pet) signal.notify();
    return pet;
  };
  return {
    create: async (...args) => changed(await pets.create(...args))!,
    update: async (...args) => changed(await pets.update(...args)),
    findById: (id) => pets.findById(id),
    list: (request) => pets.list(request),
  };
}
