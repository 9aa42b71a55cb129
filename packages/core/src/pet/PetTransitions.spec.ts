import { describe, expect, it } from '@jest/globals';
import { isAllowedTransition, PET_TRANSITIONS } from './PetTransitions.js';
import { PET_STATUSES } from './PetStatus.js';

describe('pet status transitions', () => {
  it.each([
    ['available', 'pending', true],
    ['available', 'sold', true],
    ['pending', 'available', true],
    ['pending', 'sold', true],
    ['sold', 'available', false],
    ['sold', 'pending', false],
  ] as const)('%s -> %s allowed: %s', (from, to, allowed) => {
    expect(isAllowedTransition(from, to)).toBe(allowed);
  });

  it('always allows staying in the same status, sold included', () => {
    for (const status of PET_STATUSES) expect(isAllowedTransition(status, status)).toBe(true);
  });

  it('makes sold final', () => {
    expect(PET_TRANSITIONS.sold).toEqual([]);
  });
});
