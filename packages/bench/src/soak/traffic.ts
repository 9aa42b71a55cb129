import type { IncomingHttpHeaders } from 'node:http';
import autocannon from 'autocannon';
import { nextLink } from '@petstore/test-support';
import type { Keys } from './deployment.js';
import type { Recorder } from './recorder.js';

const STATUS_FILTERS = [undefined, 'available', 'pending', 'sold'] as const;
type StatusFilter = (typeof STATUS_FILTERS)[number];

/** Real cursors of every listing (no filter and each status), taken by walking it through the proxy. */
export async function walkCursors(base: string, key: string): Promise<Map<StatusFilter, string[]>> {
  const cursors = new Map<StatusFilter, string[]>();
  for (const status of STATUS_FILTERS) {
    const found: string[] = [];
    // An odd page size, so that the positions are not all multiples of the limits the load asks for.
    let next: string | null = `${base}/v1/pets?limit=37${status ? `&status=${status}` : ''}`;
    while (next) {
      const response: Response = await fetch(next, { headers: { Authorization: `Bearer ${key}` } });
      if (response.status !== 200) throw new Error(`walking the listing: GET ${next} answered ${response.status}`);
      const link = nextLink(response.headers.get('link'));
      const cursor = link ? new URL(link).searchParams.get('cursor') : null;
      if (cursor) found.push(cursor);
      next = link ? `${base}/v1/pets${new URL(link).search}` : null;
    }
    cursors.set(status, found);
  }
  return cursors;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** A random page: any listing, any real position in it (or the first page), any limit from 1 to 100. */
function randomPagePath(cursors: Map<StatusFilter, string[]>): string {
  const status = pick(STATUS_FILTERS);
  const positions = cursors.get(status) ?? [];
  const cursor = Math.random() < 1 / (positions.length + 1) ? undefined : pick(positions);
  const query = new URLSearchParams({ limit: String(1 + Math.floor(Math.random() * 100)) });
  if (status) query.set('status', status);
  if (cursor) query.set('cursor', cursor);
  return `/v1/pets?${query}`;
}

type AutocannonRequest = NonNullable<autocannon.Options['requests']>[number];
type Headers = IncomingHttpHeaders | undefined;

const headerOf = (headers: Headers) => (name: string) => {
  for (const [key, value] of Object.entries(headers ?? {}))
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(', ') : (value ?? null);
  return null;
};

/** The limits of the load's key (`issueUnlimitedKeyWithCli`): a 429 that names one of them means the key was limited. */
const UNLIMITED = new Set(['1000000000', '1000000000000']);

/**
 * What each connection of the load sends, in turn: 15 random pages, 2 creates, a bad key (401, or 429 once the
 * address has failed too often), an invalid query (400) and a request of a Free key far beyond its quota (429).
 * Answers are judged by their content (a 201's id, a 429's limit), not by the request they are paired with.
 */
export function loadMix(keys: Keys, cursors: Map<StatusFilter, string[]>, recorder: Recorder): AutocannonRequest[] {
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
  const onResponse = (status: number, body: string, _context: unknown, headers: Headers) => {
    const header = headerOf(headers);
    recorder.details('load', status, body, header, UNLIMITED.has(header('x-ratelimit-limit') ?? ''));
  };
  let creates = 0;
  const page: AutocannonRequest = {
    method: 'GET',
    path: '/v1/pets',
    headers: bearer(keys.load),
    setupRequest: (request) => ({ ...request, path: randomPagePath(cursors) }),
    onResponse,
  };
  const create: AutocannonRequest = {
    method: 'POST',
    path: '/v1/pets',
    headers: { ...bearer(keys.load), 'Content-Type': 'application/json' },
    setupRequest: (request) => ({ ...request, body: JSON.stringify({ name: `soak ${++creates}`, categoryId: 1 + (creates % 9) }) }),
    onResponse,
  };
  const badKey: AutocannonRequest = { method: 'GET', path: '/v1/pets', headers: bearer('pst_not-a-key'), onResponse };
  const invalid: AutocannonRequest = { method: 'GET', path: '/v1/pets?limit=0', headers: bearer(keys.load), onResponse };
  const overQuota: AutocannonRequest = { method: 'GET', path: '/v1/pets?limit=5', headers: bearer(keys.small), onResponse };
  return [
    ...Array.from({ length: 5 }, () => page),
    create,
    ...Array.from({ length: 5 }, () => page),
    badKey,
    invalid,
    ...Array.from({ length: 5 }, () => page),
    create,
    overQuota,
  ];
}

export const CONNECTIONS = 32;

/** autocannon's run: an event emitter (each answer, each error) that is also the promise of its result. */
export type LoadRun = autocannon.Instance & PromiseLike<autocannon.Result>;

/** What of autocannon's Client the workaround below touches (not in its types: internals of autocannon 9). */
interface ClientInternals {
  _connect(): void;
  pipelinedRequests: { clear(): void };
}

/**
 * autocannon 9 reconnects a connection the other side closed (haproxy closes one after its 502 at the kill of an
 * instance) but keeps the request it had just written on it, which will never be answered: from then on each answer
 * on that connection is paired with the request before it, its latency measured from that request's start (up to a
 * second more at a capped rate). Forgetting the unanswered requests at each reconnection keeps the pairs right.
 */
function forgetUnansweredOnReconnect(client: object): void {
  const internals = client as ClientInternals;
  const connect = internals._connect;
  internals._connect = function (this: ClientInternals) {
    this.pipelinedRequests.clear();
    connect.call(this);
  };
}

/** Drives the mix through the proxy for `seconds`, at `overallRate` requests per second (or as fast as it can). */
export function driveLoad(base: string, requests: AutocannonRequest[], seconds: number, overallRate?: number): LoadRun {
  return autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: 10,
    setupClient: forgetUnansweredOnReconnect,
    requests,
    ...(overallRate && { overallRate }),
  }) as unknown as LoadRun;
}

/** Sends one request after another until `until()` is true, each answer recorded; returns its statuses. */
export async function sequentialClient(
  recorder: Recorder,
  client: string,
  send: (n: number) => Promise<Response>,
  pauseMs: number,
  until: () => boolean,
): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  for (let n = 0; !until(); n++) {
    const sentAt = performance.now();
    try {
      const response = await send(n);
      const body = await response.text();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      recorder.answer(response.status, performance.now() - sentAt);
      recorder.details(client, response.status, body, (name) => response.headers.get(name), true);
    } catch {
      statuses['no answer'] = (statuses['no answer'] ?? 0) + 1;
      recorder.noAnswer(client);
    }
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return statuses;
}
