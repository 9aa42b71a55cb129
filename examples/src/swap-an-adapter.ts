// The whole server as `pnpm start` runs it, with one adapter swapped: rebind its token before anything resolves it.
import { createContainer, loadConfig, startServer, TOKENS } from '@petstore/app';
import { InMemoryRateLimitStore, type RateLimitStore } from '@petstore/core';

const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', PORT: '0', NODE_ENV: 'production', LOG_LEVEL: 'silent' });
const container = createContainer(config);
// Your own RateLimitStore (or PetRepository, KeyStore, Clock, ...) goes here; this one counts in process memory.
const myRateLimitStore: RateLimitStore = new InMemoryRateLimitStore();
container.rebind(TOKENS.RateLimitStore).toConstantValue(myRateLimitStore);

const server = await startServer(config, container);
console.log(`/livez answers ${(await fetch(server.url.replace(/\/v1$/, '/livez'))).status}`);
await server.close();
