import type { AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { AdmitRequest, AdmitUsageQuery, AuthenticateKey, CreatePet, CreatePetIdempotently, EnforceRateLimit, GetPet, GetRateLimitUsage, IssueApiKey, ListPets } from '@petstore/core';
import { FakeClock, InMemoryIdempotencyStore, InMemoryKeyStore, InMemoryPetRepository, InMemoryRateLimitStore } from '@petstore/core/testing';
import Koa from 'koa';
import { createPetsApi } from './createPetsApi.js';

describe('mounting the API in an existing Koa app', () => {
  it('serves the interface under any prefix and leaves the host app its other routes', async () => {
    const clock = new FakeClock();
    const pets = new InMemoryPetRepository();
    const keys = new InMemoryKeyStore();
    const rateLimits = new InMemoryRateLimitStore();
    const { secret } = await new IssueApiKey(keys, clock).execute({ plan: 'free' });
    const host = new Koa();
    host.use(
      createPetsApi(
        {
          listPets: new ListPets(pets),
          createPet: new CreatePet(pets),
          createPetIdempotently: new CreatePetIdempotently(pets, new InMemoryIdempotencyStore(), clock),
          getPet: new GetPet(pets, clock),
          admitRequest: new AdmitRequest(new AuthenticateKey(keys), new EnforceRateLimit(rateLimits, clock)),
          admitUsageQuery: new AdmitUsageQuery(new AuthenticateKey(keys), new EnforceRateLimit(rateLimits, clock)),
          getRateLimitUsage: new GetRateLimitUsage(keys, rateLimits, clock),
          clock,
          publicBaseUrl: 'https://shelter.example/api/adoption/v1',
        },
        { prefix: '/api/adoption/v1' },
      ),
    );
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
