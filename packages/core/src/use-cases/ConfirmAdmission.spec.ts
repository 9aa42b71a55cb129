import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';
import type { Admission, AdmissionRequest } from './AdmitRequest.js';

describe('ConfirmAdmission', () => {
  let ports: InMemoryPorts;
  let store: PetStore;
  let keyId: string;
  let request: AdmissionRequest;
  let admission: Admission;

  beforeEach(async () => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    store = createPetStore(ports);
    const issued = await store.issueApiKey.execute({ plan: 'free', expiresAt: '2026-06-01T12:00:30Z' }, 'cli');
    keyId = issued.key.id;
    request = { secret: issued.secret, clientAddress: 'a', scope: 'pets:write' };
    admission = await store.admitRequest.execute(request);
  });

  it('confirms a key still as it was, counting nothing', async () => {
    await store.confirmAdmission.execute(request, admission);
    expect((await store.admitRequest.execute(request)).rateLimit.remaining).toBe(58);
  });

  it.each<[string, (store: PetStore) => Promise<unknown>, string]>([
    ['revoked', (s) => s.revokeApiKey.execute(keyId, 'cli'), 'unauthorized'],
    ['disabled', (s) => s.updateApiKey.execute(keyId, { disabled: true }, 'cli'), 'key_disabled'],
    ['stripped of the scope', (s) => s.updateApiKey.execute(keyId, { scopes: ['pets:read'] }, 'cli'), 'insufficient_scope'],
  ])('refuses a key %s while the request was arriving, with the admission’s rate-limit state', async (_, change, code) => {
    await change(store);
    await expect(store.confirmAdmission.execute(request, admission)).rejects.toMatchObject({ code, rateLimit: admission.rateLimit });
  });

  it('refuses a key that expired while the request was arriving', async () => {
    ports.clock.advance(30_000);
    await expect(store.confirmAdmission.execute(request, admission)).rejects.toMatchObject({ code: 'key_expired', rateLimit: admission.rateLimit });
  });

  it('passes on an unexpected failure of the key store as it is', async () => {
    const failure = new Error('store down');
    ports.keys.findByHash = () => Promise.reject(failure);
    await expect(store.confirmAdmission.execute(request, admission)).rejects.toBe(failure);
  });
});
