import type { AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { createPetStore, InMemoryRateLimitStore } from '@petstore/core';
import {
  FakeClock,
  InMemoryAuditLog,
  InMemoryIdempotencyStore,
  InMemoryKeyStore,
  InMemoryKeyUsageStore,
  InMemoryPetRepository,
} from '@petstore/core/testing';
import Koa from 'koa';
import { createPetsApi } from './createPetsApi.js';

describe('mounting the API in an existing Koa app', () => {
  it('serves the interface under any prefix and leaves the host app its other routes', async () => {
    const store = createPetStore({
      pets: new InMemoryPetRepository(),
      keys: new InMemoryKeyStore(),
      rateLimits: new InMemoryRateLimitStore(),
      idempotency: new InMemoryIdempotencyStore(),
      auditLog: new InMemoryAuditLog(),
      keyUsage: new InMemoryKeyUsageStore(),
      clock: new FakeClock(),
    });
    const { secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
    const host = new Koa();
    host.use(createPetsApi({ ...store, publicBaseUrl: 'https://shelter.example/api/adoption/v1' }, { prefix: '/api/adoption/v1' }));
    host.use((ctx) => {
      ctx.body = 'host app';
    });
    const server = host.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const created = await fetch(`${base}/api/adoption/v1/pets`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe('https://shelter.example/api/adoption/v1/pets/1');
      expect(await (await fetch(`${base}/api/adoption/v1/pets`, { headers: { Authorization: `Bearer ${secret}` } })).json()).toHaveLength(1);
      expect((await fetch(`${base}/api/adoption/v1/pets`)).status).toBe(401);
      expect(await (await fetch(`${base}/elsewhere`)).text()).toBe('host app');
    } finally {
      server.close();
    }
  });
});
