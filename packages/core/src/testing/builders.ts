import { generateEventId } from '../events/eventId.js';
import type { ApiKey } from '../access/ApiKey.js';
import { type AuditEvent } from '../access/AuditEvent.js';
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
    limitOverrides: { perMinute: null, perDay: null },
    scopes: ['pets:read', 'pets:write'],
    expiresAt: null,
    disabled: false,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, keyCount)),
    revokedAt: null,
    previousSecretExpiresAt: null,
    ...overrides,
  };
}

type KeyAuditEvent = Extract<AuditEvent, { keyId: string }>;

export function anAuditEvent(overrides: Partial<KeyAuditEvent> = {}): KeyAuditEvent {
  const at = overrides.at ?? new Date('2026-06-01T12:00:00Z');
  return {
    id: generateEventId(at),
    at,
    actor: 'cli',
    action: 'key.updated',
    keyId: 'key_0123456789abcdef',
    changes: { name: { before: 'old', after: 'new' } },
    ...overrides,
  };
}
