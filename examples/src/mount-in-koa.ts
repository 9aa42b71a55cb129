// Mounting the /v1 interface in a Koa app you already have, under a prefix of your choice. The host app keeps
// its other routes; everything under the prefix (auth, rate limits, errors, OpenAPI) is answered by the API.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPetStore, SystemClock } from '@petstore/core';
import { inMemoryPorts } from '@petstore/core/testing';
import { createPetsApi } from '@petstore/http-koa';
import Koa from 'koa';

// In-memory adapters for every port (see embed-core.ts for them one by one), on the real clock.
const store = createPetStore({ ...inMemoryPorts(), clock: new SystemClock() });

// Listening first (on any free port), so that the base URL the API gives clients (Location, Link) is the one that
// answers. Behind a proxy or on a fixed address, give the URL your clients use instead.
const server = createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const app = new Koa();
app.use(createPetsApi({ ...store, publicBaseUrl: `${base}/shelter/v1` }, { prefix: '/shelter/v1' }));
app.use((ctx) => {
  ctx.body = { hello: 'from the host app' };
});
const handle = app.callback();
server.on('request', (req, res) => void handle(req, res));

const { secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
const headers = { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' };
const created = await fetch(`${base}/shelter/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
const location = created.headers.get('location')!;
console.log(created.status, location, await created.json());
console.log((await fetch(location, { headers })).status, 'at the Location');
const listed = await fetch(`${base}/shelter/v1/pets`, { headers });
console.log(listed.status, `X-RateLimit-Remaining: ${listed.headers.get('x-ratelimit-remaining')}`, await listed.json());
console.log((await fetch(`${base}/shelter/v1/pets`)).status, 'without a key');
console.log(await (await fetch(`${base}/elsewhere`)).json());
server.close();
