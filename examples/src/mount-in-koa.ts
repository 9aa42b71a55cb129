// Mounting the /v1 interface in a Koa app you already have, under a prefix of your choice. The host app keeps
// its other routes; everything under the prefix (auth, rate limits, errors, OpenAPI) is answered by the API.
import { createPetStore, SystemClock } from '@petstore/core';
import { inMemoryPorts } from '@petstore/core/testing';
import { createPetsApi } from '@petstore/http-koa';
import Koa from 'koa';

// In-memory adapters for every port (see embed-core.ts for them one by one), on the real clock.
const store = createPetStore({ ...inMemoryPorts(), clock: new SystemClock() });

const app = new Koa();
app.use(createPetsApi({ ...store, publicBaseUrl: 'http://127.0.0.1:8080/shelter/v1' }, { prefix: '/shelter/v1' }));
app.use((ctx) => {
  ctx.body = { hello: 'from the host app' };
});

const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

const { secret } = await store.issueApiKey.execute({ plan: 'free' }, 'cli');
const headers = { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' };
const created = await fetch(`${base}/shelter/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
console.log(created.status, created.headers.get('location'), await created.json());
const listed = await fetch(`${base}/shelter/v1/pets`, { headers });
console.log(listed.status, `X-RateLimit-Remaining: ${listed.headers.get('x-ratelimit-remaining')}`, await listed.json());
console.log((await fetch(`${base}/shelter/v1/pets`)).status, 'without a key');
console.log(await (await fetch(`${base}/elsewhere`)).json());
server.close();
