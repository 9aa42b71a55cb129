// A process of your own whose work is serving the API, started as the bin starts Node:
//   MALLOC_ARENA_MAX=1 node --no-allocation-site-pretenuring --heap-growing-percent=25 --min-semi-space-size=8 dist/own-server-process.js
import { getHeapSpaceStatistics } from 'node:v8';
import { holdYoungGenerationOnSqlite } from '@petstore/app/young-generation';

const settings = { DATABASE_URL: 'sqlite::memory:', PORT: '0', NODE_ENV: 'production', LOG_LEVEL: 'silent' };
// Before anything else loads: importing the server would grow V8's young generation to its largest.
holdYoungGenerationOnSqlite(settings); // on PostgreSQL it holds nothing
const { loadConfig, startServer } = await import('@petstore/app');

const server = await startServer(loadConfig(settings));

const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!;
console.log(`/livez answers ${(await fetch(server.url.replace(/\/v1$/, '/livez'))).status}`);
console.log(`young generation: ${newSpace.space_size / 1024 / 1024} MB`);
await server.close();
