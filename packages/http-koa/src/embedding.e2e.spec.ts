import type { AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { createPetStore } from '@petstore/core';
import { inMemoryPorts } from '@petstore/core/testing';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import { createPetsApi } from './createPetsApi.js';

const inMemoryStore = () => createPetStore(inMemoryPorts());

/** Serves a Koa app on loopback for one test. */
async function serving(app: Koa, test: (base: string) => Promise<void>): Promise<void> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    await test(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.close();
  }
}

describe('mounting the API in an existing Koa app', () => {
  it('serves the interface under any prefix and leaves the host app its other routes', async () => {
    const store = inMemoryStore();
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

  describe('after a body parser the host app mounted first', () => {
    const post = (base: string, secret: string, body: string) =>
      fetch(`${base}/v1/pets`, { method: 'POST', headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' }, body });

    it('reads the body koa-bodyparser kept (ctx.request.rawBody), with the same checks', async () => {
      const store = inMemoryStore();
      const { secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
      const host = new Koa();
      host.use(bodyParser());
      host.use(createPetsApi({ ...store, publicBaseUrl: 'https://shelter.example/v1' }));
      await serving(host, async (base) => {
        expect((await post(base, secret, JSON.stringify({ name: 'Rex', categoryId: 1 }))).status).toBe(201);
        const repeated = await post(base, secret, '{"name":"Rex","name":"Max","categoryId":1}');
        expect(await repeated.json()).toMatchObject({ code: 'malformed_json', status: 400 });
        const fraction = await post(base, secret, '{"name":"Rex","categoryId":1.0}');
        expect(await fraction.json()).toMatchObject({ code: 'validation_error', details: [{ field: 'categoryId' }] });
        expect((await store.listPets.execute()).pets.map((p) => p.name)).toEqual(['Rex']);
      });
    });

    it('says what went wrong when the body was read and not kept: a 500 for the client, the reason for the embedder', async () => {
      const store = inMemoryStore();
      const { secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
      const reported: unknown[] = [];
      const host = new Koa();
      host.use(async (ctx, next) => {
        for await (const _ of ctx.req); // a parser of its own that keeps nothing
        await next();
      });
      host.use(createPetsApi({ ...store, publicBaseUrl: 'https://shelter.example/v1' }, { onInternalError: (error) => reported.push(error) }));
      await serving(host, async (base) => {
        const response = await post(base, secret, JSON.stringify({ name: 'Rex', categoryId: 1 }));
        expect(response.status).toBe(500);
        expect(await response.json()).toEqual({ code: 'internal_error', message: 'Internal server error.', status: 500 });
        expect(String(reported[0])).toContain('The request body was read before the pets API');
        expect((await store.listPets.execute()).pets).toEqual([]);
      });
    });
  });
});
