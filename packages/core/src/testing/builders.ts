import type { ApiKey } from '../access/ApiKey.js';
import type { PetDraft } from '../pet/Pet.js';

export function aPetDraft(overrides: Partial<PetDraft> = {}): PetDraft {
  return { name: 'Rex', categoryId: 1, status: 'available', ...overrides };
}

let keyCount = 0;

export function anApiKey(overrides: Partial<ApiKey> = {}): ApiKey {
  keyCount += 1;
  return {
    id: `key_test${String(keyCount).padStart(12, '0')}`,
    name: `test key ${keyCount}`,
    plan: 'free',
    customLimits: null,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, keyCount)),
    revokedAt: null,
    ...overrides,
  };
}
