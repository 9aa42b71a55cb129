// Mounting the /v1 interface in the @koa/router router of a Koa app you already have, beside your own routes:
// `router.use('/api', api)` serves it under /api/v1 (`router.use(api)` under /v1, its own prefix).
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import { createPetStore, SystemClock } from '@petstore/core';
import { inMemoryPorts } from '@petstore/core/testing';
import { createPetsApi } from '@petstore/http-koa';
import Koa from 'koa';

const router = new Router();
router.get('/hello', (ctx) => {
  ctx.body = { hello: 'from the host app' };
});
const app = new Koa();
app.use(router.routes()).use(router.allowedMethods());

// Listening first lets the public base (in Location and Link) name the port the server got: a router looks its
// routes up on every request, so routes added now are served.
const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const store = createPetStore({ ...inMemoryPorts(), clock: new SystemClock() });
router.use('/api', createPetsApi({ ...store, publicBaseUrl: `${base}/api/v1` }));

const { secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
const headers = { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' };
const created = await fetch(`${base}/api/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
console.log(created.status, created.headers.get('location'));
console.log((await fetch(`${base}/api/v1/pets`, { headers })).status, await (await fetch(`${base}/api/v1/pets/1`, { headers })).json());
console.log((await fetch(`${base}/api/v1/pets`, { method: 'DELETE', headers })).status, 'for DELETE, as the API answers it');
console.log(await (await fetch(`${base}/hello`)).json());
server.close();
