// `pnpm build && node packages/bench/dist/profile.js [sqlite|postgres-redis|peer|peer-postgres|floor] [hot|random|create] [seconds] [--perf]`:
// the real server with the benchmark's load (50 connections, GET /v1/pets?limit=20, the random pages, or creates, on 10,000
// pets), then where its CPU went, per request served.
// - By default under `node --cpu-prof`: by area (the product's packages, each library, Node's internals, socket
//   writes) and the top JavaScript functions by self time. The raw .cpuprofile is kept for a flame graph (Chrome
//   DevTools, speedscope). It covers the process from its start, and the profiler slows JavaScript more than native
//   code: use it to find functions, not to weigh the server against a peer.
// - With `--perf` (Linux `perf` on PATH): `perf record` of the whole process (every thread, the kernel included) for
//   the measured seconds only, after 3 s of warm-up, with `--perf-basic-prof` naming the JIT's code: what the server
//   costs by kind of work (JavaScript by package, V8's builtins and runtime, the garbage collector, SQLite, the
//   kernel) and the top symbols. Sampling costs little, so two runs can be compared.
// Not a test, not a benchmark.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres, startRedis } from '@petstore/test-support';
import autocannon from 'autocannon';
import { startProductServer } from './processes.js';
import { productionSettings } from './productionSettings.js';
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

const withPerf = process.argv.includes('--perf');
const [deployment = 'sqlite', temperature = 'hot', secondsText = '10'] = process.argv.slice(2).filter((arg) => arg !== '--perf');
const seconds = Number(secondsText);
if (withPerf) {
  try {
    execFileSync('perf', ['--version'], { stdio: 'ignore' });
  } catch {
    console.error('profile.js --perf needs Linux perf on PATH (Debian: apt-get install linux-perf).');
    process.exit(1);
  }
}
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

/** benchServer.js (or a peer) under `node --cpu-prof` (not allowed in NODE_OPTIONS, hence a spawn of our own) or `--perf-basic-prof`. */
async function startProfiledServer(env: Record<string, string>) {
  const peer = { peer: 'peer.js', 'peer-postgres': 'peerPostgres.js', floor: 'floor.js' }[deployment];
  const script = join(dirname(fileURLToPath(import.meta.url)), peer ?? 'benchServer.js');
  // V8 also writes a log of its code events when it names code for perf: into the scratch directory, not the cwd.
  const flags = withPerf ? ['--perf-basic-prof', `--logfile=${join(work, 'v8.log')}`] : ['--cpu-prof', `--cpu-prof-dir=${profiles}`];
  // The product with the production settings of docs/deployment.md, as the benchmark runs it.
  const settings = peer ? { nodeArgs: [], env: {} } : productionSettings(env['DATABASE_URL']);
  const child = spawn(process.execPath, [...settings.nodeArgs, ...flags, script], {
    env: { PATH: process.env['PATH'], ...settings.env, NODE_ENV: 'production', PORT: '0', ...env },
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
  return { port, pid: child.pid!, stop: async () => void (child.kill('SIGTERM'), await once(child, 'exit')) };
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
    const walker = await startProductServer(env, false);
    const pages = await randomPages(walker.port, key);
    await walker.stop();
    paths = pages.map((page) => (deployment.startsWith('peer') ? page.peer : page.product));
  }
  const server = await startProfiledServer(env);
  let next = 0;
  const load = (duration: number) =>
    autocannon({
      url: `http://127.0.0.1:${server.port}`,
      connections: 50,
      duration,
      headers: { Authorization: `Bearer ${key}` },
      requests:
        temperature === 'create'
          ? [{ method: 'POST', path: '/v1/pets', headers: { 'Content-Type': 'application/json' }, body: '{"name":"profiled","categoryId":1}' }]
          : [{ method: 'GET', path: paths[0]!, setupRequest: (request: object) => ({ ...request, path: paths[next++ % paths.length] }) }],
    });
  if (withPerf) {
    await load(3);
    const record = join(work, 'perf.data');
    const perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', String(PERF_HZ), '-p', String(server.pid), '-o', record], { stdio: 'ignore' });
    // perf attaches within milliseconds; the load that follows is what it samples.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const result = await load(seconds);
    perf.kill('SIGINT');
    await once(perf, 'exit');
    await server.stop();
    await stop();
    reportPerf(record, result.requests.total);
    // The JIT's symbol map, written by --perf-basic-prof, is read by `perf report` above.
    rmSync(`/tmp/perf-${server.pid}.map`, { force: true });
    return;
  }
  const result = await load(seconds);
  await server.stop();
  await stop();

  reportCpuProfile(result.requests.total);
}

/** The V8 profile: self time by area and by function, per request. */
function reportCpuProfile(requests: number): void {
  const file = readdirSync(profiles).find((name) => name.endsWith('.cpuprofile'))!;
  const profile = JSON.parse(readFileSync(join(profiles, file), 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
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

/** Samples per second of CPU time: one sample stands for 250 µs. */
const PERF_HZ = 4000;

/** The kind of work a sampled symbol does, from its shared object and name. */
function perfAreaOf(dso: string, symbol: string): string {
  if (dso.startsWith('[kernel')) return 'kernel (system calls, TCP over loopback)';
  if (dso.startsWith('[JIT]')) {
    const url = /^JS:\S+ (\S*?)(?::\d+){1,2}$/.exec(symbol)?.[1];
    if (url === undefined) return 'JavaScript: other compiled code';
    // Code without a script: compiled at run time with `new Function` (fast-json-stringify's serializers).
    return url === '' ? 'JavaScript: generated (new Function)' : `JavaScript: ${areaOf({ functionName: '', url, lineNumber: 0 })}`;
  }
  // better-sqlite3 13's prebuilt binary is named for its platform (`prebuilds/linux-x64.node`), one built from source `better_sqlite3.node`.
  if (dso.startsWith('better_sqlite3') || /^(linux|linuxmusl|darwin|win32)-(x64|arm64)\.node$/.test(dso)) return 'SQLite (better-sqlite3)';
  if (dso.startsWith('libc')) return 'libc (malloc, memcpy)';
  if (dso !== 'node') return dso;
  if (symbol.startsWith('Builtins_')) return "V8's builtins (property access, calls, strings, promises)";
  if (
    /^v8::internal::(Scaveng|Heap|MarkCompact|MinorMarkCompact|ConcurrentMarking|.*Marking|.*Sweeper|Evacuat|MemoryAllocator|PagedSpace|SemiSpace|NewSpace|RememberedSet|SlotSet|GCTracer)/.test(
      symbol,
    )
  ) {
    return 'garbage collector';
  }
  if (symbol.startsWith('v8::') || symbol.startsWith('Runtime_')) return "V8's runtime (C++: objects, strings, JSON, the compiler)";
  return 'Node.js native code (libuv, HTTP parser, streams, crypto)';
}

/** The `perf record` of the measured seconds: CPU by kind of work and the top symbols, per request. */
function reportPerf(record: string, requests: number): void {
  const report = execFileSync('perf', ['report', '-i', record, '--stdio', '--no-children', '-n', '--sort', 'dso,sym', '-g', 'none', '-t', '|'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const byArea = new Map<string, number>();
  const bySymbol = new Map<string, number>();
  let total = 0;
  for (const line of report.split('\n')) {
    const [, samplesText, dsoText, symbolText] = line.split('|');
    if (line.startsWith('#') || symbolText === undefined) continue;
    const samples = Number(samplesText);
    const dso = dsoText!.trim();
    const symbol = symbolText.trim().replace(/^\[[.k]\] /, '');
    total += samples;
    const area = perfAreaOf(dso, symbol);
    byArea.set(area, (byArea.get(area) ?? 0) + samples);
    const name = `${symbol.slice(0, 110)} (${dso})`;
    bySymbol.set(name, (bySymbol.get(name) ?? 0) + samples);
  }
  const perRequest = (samples: number) => ((samples * (1_000_000 / PERF_HZ)) / requests).toFixed(1);
  console.log(
    `${deployment}, ${temperature}: ${requests} requests in ${seconds} s under perf, CPU ${perRequest(total)} µs per request (every thread)`,
  );
  console.log(`record: ${record} (perf report -i ${record})\n\n| Kind of work | µs per request | share |\n|---|---:|---:|`);
  for (const [area, samples] of [...byArea].sort((a, b) => b[1] - a[1])) {
    console.log(`| ${area} | ${perRequest(samples)} | ${((samples / total) * 100).toFixed(1)}% |`);
  }
  console.log('\n| Symbol (self) | µs per request |\n|---|---:|');
  for (const [symbol, samples] of [...bySymbol].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`| ${symbol} | ${perRequest(samples)} |`);
}

await run();
