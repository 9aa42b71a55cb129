import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { issueUnlimitedKey, listAllPets, spawnServer, STOPPED_AT_ONCE, WITH_ADMIN_API, type ServerProcess } from './testing/builtServer.js';

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const CHROMIUM = [process.env['CHROMIUM'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path && existsSync(path));
if (!CHROMIUM) console.warn('\n\n!!! chromium not found (apt-get install chromium): the client browser test is SKIPPED !!!\n\n');

/** The page: loads the built client as an ES module and writes what it got into `#out`. */
const page = (api: string, key: string) => `<!doctype html><meta charset="utf-8"><pre id="out">pending</pre><script type="module">
import { createClient, PetstoreError } from '/client/index.js';
const out = document.getElementById('out');
try {
  const client = createClient({ baseUrl: ${JSON.stringify(api)}, apiKey: ${JSON.stringify(key)} });
  const pet = await client.createPet({ name: 'Browser Rex', categoryId: 1 });
  const listed = [];
  for await (const p of client.iteratePets({ limit: 1 })) listed.push(p.id);
  const invalid = await client.createPet({ name: '', categoryId: 1 }).catch((error) => error);
  out.textContent = JSON.stringify({ pet, listed, invalid: PetstoreError.is(invalid) && invalid.code, limit: client.rateLimit && client.rateLimit.limit });
} catch (error) {
  out.textContent = 'failed: ' + error;
}
</script>`;

(CHROMIUM ? describe : describe.skip)('@petstore/client in a browser (headless Chromium, against the built server)', () => {
  let work: string;
  let databaseUrl: string;
  let server: ServerProcess;
  let pages: Server;
  let pageOrigin: string;
  let key: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'petstore-client-browser-'));
    databaseUrl = `sqlite:${join(work, 'petstore.db')}`;
    pages = createServer((request, response) => {
      const url = request.url ?? '/';
      if (url === '/') {
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page(server.url, key));
        return;
      }
      const file = normalize(join(DIST, url.replace(/^\/client\//, '')));
      if (!url.startsWith('/client/') || !file.startsWith(DIST)) return void response.writeHead(404).end();
      readFile(file).then(
        (body) => response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(body),
        () => response.writeHead(404).end(),
      );
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(pages.address() as { port: number }).port}`;
    server = await spawnServer({
      ...STOPPED_AT_ONCE,
      ...WITH_ADMIN_API,
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'production',
      CORS_ORIGINS: pageOrigin,
    });
    key = await issueUnlimitedKey(server);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await new Promise((resolve) => pages?.close(resolve));
    await rm(work, { recursive: true, force: true });
  });

  it('creates, pages and reports errors from a web page, across origins', async () => {
    const { stdout } = await promisify(execFile)(
      CHROMIUM!,
      ['--headless', '--no-sandbox', '--disable-gpu', '--virtual-time-budget=20000', '--dump-dom', `${pageOrigin}/`],
      { timeout: 60_000, maxBuffer: 10 * 1024 * 1024 },
    );
    const out = /<pre id="out">(.*)<\/pre>/s.exec(stdout)?.[1];

    expect(out).toMatch(/^\{/); // else the page's own report: "failed: <error>"
    const result = JSON.parse(out!) as { pet: { id: number; name: string }; listed: number[]; invalid: string; limit: number };
    expect(result).toMatchObject({
      pet: { name: 'Browser Rex', categoryId: 1, status: 'available' },
      invalid: 'validation_error',
      limit: 1_000_000_000,
    });
    const stored = await listAllPets(server, key);
    expect(stored.map((p) => p.id)).toEqual(result.listed);
    expect(stored).toContainEqual(expect.objectContaining({ id: result.pet.id, name: 'Browser Rex' }));
  }, 90_000);
});
