// `pnpm build && node packages/bench/dist/profile.js [sqlite|postgres-redis|peer|peer-postgres|floor] [hot|random] [seconds]`: the real server
// under `node --cpu-prof` with the benchmark's load (50 connections, GET /v1/pets?limit=20 on 10,000 pets), then
// where its CPU went, per request served: by area (kernel/network, SQLite, pg, Redis, Koa, the product's own
// code, ...) and the top functions by self time. The raw .cpuprofile is kept for a flame graph (Chrome DevTools,
// speedscope). Not a test, not a benchmark: the profiler itself slows the server down.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres, startRedis } from '@petstore/test-support';
import autocannon from 'autocannon';
import { startNodeServer } from './processes.js';
import { randomPages } from './randomPages.js';
import { benchKey, seedPostgres, seedSqlite } from './seed.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [deployment = 'sqlite', temperature = 'hot', secondsText = '10'] = process.argv.slice(2);
const seconds = Number(secondsText);
const work = mkdtempSync(join(tmpdir(), 'petstore-profile-'));
const profiles = join(work, 'profiles');

/** The area a function belongs to, from its script URL. */
function areaOf({ functionName, url }: ProfileNode['callFrame']): string {
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(program)') return 'native (V8, libuv, kernel calls)';
  const packages = [...url.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)];
  const lastPackage = packages.at(-1)?.[1];
  if (url.includes('/packages/')) return `petstore ${/\/packages\/([^/]+)\//.exec(url)?.[1] ?? ''}`.trim();
  if (lastPackage) return lastPackage;
  if (url.startsWith('node:') || url === '')
    return functionName === 'writev' || functionName === 'writeBuffer' || functionName === 'writeUtf8String'
      ? 'node:net writes (kernel)'
      : `node internals`;
  return url;
}

/** benchServer.js under `node --cpu-prof` (not allowed in NODE_OPTIONS, hence a spawn of our own). */
async function startProfiledServer(env: Record<string, string>) {
  const script = join(
    dirname(fileURLToPath(import.meta.url)),
    { peer: 'peer.js', 'peer-postgres': 'peerPostgres.js', floor: 'floor.js' }[deployment] ?? 'benchServer.js',
  );
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profiles}`, script], {
    env: { PATH: process.env['PATH'], NODE_ENV: 'production', PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => reject(new Error(output)));
  });
  return { port, stop: async () => void (child.kill('SIGTERM'), await once(child, 'exit')) };
}

async function run(): Promise<void> {
  const env: Record<string, string> = {};
  let stop = async () => undefined as void;
  if (deployment === 'sqlite' || deployment === 'peer' || deployment === 'floor') {
    const path = join(work, 'pets.db');
    await seedSqlite(path, 10_000);
    Object.assign(env, { DATABASE_URL: `sqlite:${path}`, DATABASE_PATH: path });
  } else {
    const postgres = (await startPostgres())!;
    const redis = (await startRedis())!;
    await seedPostgres(postgres.url, 10_000);
    Object.assign(env, { DATABASE_URL: postgres.url, REDIS_URL: redis.url });
    stop = async () => {
      await redis.stop();
      await postgres.stop();
    };
  }
  const key = await benchKey(env['DATABASE_URL']!);
  let paths = ['/v1/pets?limit=20'];
  if (temperature === 'random') {
    // The benchmark's random pages, found by walking the listings on the real server (not profiled).
    const walker = await startNodeServer('benchServer.js', env, false);
    const pages = await randomPages(walker.port, key);
    await walker.stop();
    paths = pages.map((page) => (deployment.startsWith('peer') ? page.peer : page.product));
  }
  const server = await startProfiledServer(env);
  let next = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}`,
    connections: 50,
    duration: seconds,
    headers: { Authorization: `Bearer ${key}` },
    requests: [{ method: 'GET', path: paths[0]!, setupRequest: (request: object) => ({ ...request, path: paths[next++ % paths.length] }) }],
  });
  await server.stop();
  await stop();

  const file = readdirSync(profiles).find((name) => name.endsWith('.cpuprofile'))!;
  const profile = JSON.parse(readFileSync(join(profiles, file), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const requests = result.requests.total;
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    const area = areaOf(frame);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    if (area !== 'idle') busyUs += us;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/(node_modules|packages)\//, '')}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const perRequest = (us: number) => (us / requests).toFixed(1);
  console.log(
    `${deployment}, ${temperature}: ${requests} requests in ${seconds} s under the profiler (${(requests / seconds).toFixed(0)} req/s), non-idle CPU ${perRequest(busyUs)} µs per request`,
  );
  console.log(`profile: ${join(profiles, file)}\n\n| Area | µs per request | share of non-idle |\n|---|---:|---:|`);
  for (const [area, us] of [...byArea].filter(([area]) => area !== 'idle').sort((a, b) => b[1] - a[1])) {
    console.log(`| ${area} | ${perRequest(us)} | ${((us / busyUs) * 100).toFixed(1)}% |`);
  }
  console.log('\n| Function (self time) | µs per request |\n|---|---:|');
  for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`| ${name} | ${perRequest(us)} |`);
}

await run();
