import type { PetStatus } from './PetStatus.js';

/** The statuses an animal may move to from each status: an adoption is pending, then done; `sold` is final. */
export const PET_TRANSITIONS: Readonly<Record<PetStatus, readonly PetStatus[]>> = {
  available: ['pending', 'sold'],
  pending: ['available', 'sold'],
  sold: [],
};

/** Whether an animal of status `from` may be given status `to` (staying where it is always may). */
export function isAllowedTransition(from: PetStatus, to: PetStatus): boolean {
  return from === to || PET_TRANSITIONS[from].includes(to);
}
