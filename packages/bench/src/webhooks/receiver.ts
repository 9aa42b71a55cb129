// The benchmark's webhook receiver, in its own process: answers every POST 200 at once (never, on a path that starts
// with `/dead/`) and keeps, for each path,
// the `data.id` of each webhook and when it arrived (ms since the epoch); `GET <path>` answers them as JSON
// (`[[id, arrivedAt], ...]`), `GET <path>?count` only how many. Reports `ready <port>` on stderr.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const received = new Map<string, [unknown, number][]>();

const server = createServer((req, res) => {
  const [path = '/', query] = (req.url ?? '/').split('?');
  if (req.method === 'GET') {
    const list = received.get(path) ?? [];
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(query === 'count' ? list.length : list));
    return;
  }
  if (path.startsWith('/dead/')) return;
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const arrivedAt = Date.now();
    const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { id: unknown } };
    const list = received.get(path) ?? received.set(path, []).get(path)!;
    list.push([data.id, arrivedAt]);
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.stderr.write(`ready ${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => process.exit(0));
