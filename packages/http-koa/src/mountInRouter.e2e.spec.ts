import type { AddressInfo } from 'node:net';
import { describe, expect, it } from '@jest/globals';
import Router, { type RouterOptions } from '@koa/router';
import { createPetStore, type PetStore } from '@petstore/core';
import { inMemoryPorts } from '@petstore/core/testing';
import Koa from 'koa';
import { createPetsApi, type PetsApi } from './createPetsApi.js';

/** A host app as embedders write it: their own @koa/router with routes of their own, and the API mounted in it. */
async function hostApp(
  mount: (router: Router) => void,
  test: (base: string, secret: string) => Promise<void>,
  store: PetStore,
  options: RouterOptions = {},
): Promise<void> {
  const { secret } = await store.issueApiKey.execute({ plan: 'free', scopes: ['pets:read', 'pets:write'] }, 'cli');
  const router = new Router(options);
  router.get('/hello', (ctx) => {
    ctx.body = { hello: 'from the host app' };
  });
  mount(router);
  router.get('/goodbye/:name', (ctx) => {
    ctx.body = { goodbye: ctx.params['name'] };
  });
  const app = new Koa();
  app.use(router.routes()).use(router.allowedMethods());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    await test(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, secret);
  } finally {
    server.close();
  }
}

const newStore = () => createPetStore(inMemoryPorts('2026-06-01T12:00:00Z'));
const api = (store: PetStore, publicBaseUrl: string, prefix?: string): PetsApi =>
  createPetsApi({ ...store, publicBaseUrl }, prefix === undefined ? {} : { prefix });

/** The whole interface answers under `base`, as it does mounted with app.use(), and the host's routes still answer. */
async function expectInterfaceUnder(root: string, base: string, secret: string): Promise<void> {
  const headers = { Authorization: `Bearer ${secret}` };
  const created = await fetch(`${root}${base}/pets`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
  });
  expect(created.status).toBe(201);
  expect(created.headers.get('location')).toBe(`https://shelter.example${base}/pets/1`);

  const listed = await fetch(`${root}${base}/pets?limit=5`, { headers });
  expect(listed.status).toBe(200);
  expect(listed.headers.get('x-ratelimit-limit')).toBe('60');
  expect(await listed.json()).toEqual([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);

  const one = await fetch(`${root}${base}/pets/1`, { headers });
  expect({ status: one.status, deprecation: one.headers.get('deprecation') }).toEqual({ status: 200, deprecation: '@1767225600' });
  expect((await fetch(`${root}${base}/pets`, { method: 'HEAD', headers })).status).toBe(200);
  expect((await fetch(`${root}${base}/openapi.json`, { headers })).status).toBe(200);

  const withoutKey = await fetch(`${root}${base}/pets`);
  expect({ status: withoutKey.status, body: await withoutKey.json() }).toMatchObject({ status: 401, body: { code: 'unauthorized', status: 401 } });

  const wrongMethod = await fetch(`${root}${base}/pets`, { method: 'DELETE', headers });
  expect({ status: wrongMethod.status, allow: wrongMethod.headers.get('allow'), body: await wrongMethod.json() }).toMatchObject({
    status: 405,
    allow: 'GET, HEAD, POST, OPTIONS',
    body: { code: 'method_not_allowed', status: 405 },
  });
  const options = await fetch(`${root}${base}/pets/1`, { method: 'OPTIONS' });
  expect({ status: options.status, allow: options.headers.get('allow') }).toEqual({ status: 204, allow: 'GET, HEAD, PATCH, OPTIONS' });

  for (const unknown of [`${base}/nothing`, `${base}/pets/`, `${base}/PETS`, `${base}/pets/1/more`]) {
    const response = await fetch(`${root}${unknown}`, { headers });
    expect({ unknown, status: response.status, body: await response.json() }).toMatchObject({ unknown, status: 404, body: { code: 'not_found' } });
  }

  expect(await (await fetch(`${root}/hello`)).json()).toEqual({ hello: 'from the host app' });
  expect(await (await fetch(`${root}/goodbye/Rex`)).json()).toEqual({ goodbye: 'Rex' });
  const hostMethod = await fetch(`${root}/hello`, { method: 'DELETE' });
  expect({ status: hostMethod.status, allow: hostMethod.headers.get('allow') }).toEqual({ status: 405, allow: 'HEAD, GET' });
  expect((await fetch(`${root}/elsewhere`)).status).toBe(404);
}

describe('mounting the API in a host app with @koa/router', () => {
  it('router.use(api): the interface under its own prefix, beside the host routes', async () => {
    const store = newStore();
    await hostApp(
      (router) => router.use(api(store, 'https://shelter.example/shelter/v1', '/shelter/v1')),
      (root, secret) => expectInterfaceUnder(root, '/shelter/v1', secret),
      store,
    );
  }, 30_000);

  it("router.use('/api', api): the mount path comes before the API's prefix (/api/v1)", async () => {
    const store = newStore();
    await hostApp(
      (router) => router.use('/api', api(store, 'https://shelter.example/api/v1')),
      (root, secret) => expectInterfaceUnder(root, '/api/v1', secret),
      store,
    );
  }, 30_000);

  it("router.use('/api/v1', api) with the prefix left to the mount path (prefix: '')", async () => {
    const store = newStore();
    await hostApp(
      (router) => router.use('/api/v1', api(store, 'https://shelter.example/api/v1', '')),
      (root, secret) => expectInterfaceUnder(root, '/api/v1', secret),
      store,
    );
  }, 30_000);

  it("a host router that runs only the most specific route (exclusive: 'specificity') serves it the same", async () => {
    const store = newStore();
    await hostApp(
      (router) => router.use(api(store, 'https://shelter.example/v1')),
      (root, secret) => expectInterfaceUnder(root, '/v1', secret),
      store,
      { exclusive: 'specificity' },
    );
  }, 30_000);

  it('a router with a prefix of its own mounts it under that prefix too', async () => {
    const store = newStore();
    await hostApp(
      (router) => {
        const shelter = new Router({ prefix: '/shelter' });
        shelter.use(api(store, 'https://shelter.example/shelter/v1'));
        router.use(shelter.routes());
      },
      (root, secret) => expectInterfaceUnder(root, '/shelter/v1', secret),
      store,
    );
  }, 30_000);
});
