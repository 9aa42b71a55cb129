// What the hand-written peers share: minute and day counters per key in memory, as a team would write them.
interface Counter {
  minuteStart: number;
  minute: number;
  dayStart: number;
  day: number;
}

export type PeerLimitHeaders = {
  'X-RateLimit-Limit': string;
  'X-RateLimit-Remaining': string;
  'X-RateLimit-Reset': string;
};

const counters = new Map<string, Counter>();

/** Counts one request of a key: its three X-RateLimit headers, or the seconds to wait when a window is full. */
export function countRequest(keyId: string, perMinute: number | null, perDay: number | null): PeerLimitHeaders | { retryAfter: number } {
  const now = Date.now();
  const minuteStart = now - (now % 60_000);
  const dayStart = now - (now % 86_400_000);
  let counter = counters.get(keyId);
  if (!counter) counters.set(keyId, (counter = { minuteStart, minute: 0, dayStart, day: 0 }));
  if (counter.minuteStart !== minuteStart) Object.assign(counter, { minuteStart, minute: 0 });
  if (counter.dayStart !== dayStart) Object.assign(counter, { dayStart, day: 0 });
  const minuteLimit = perMinute ?? Number.MAX_SAFE_INTEGER;
  if (counter.minute >= minuteLimit || counter.day >= (perDay ?? Number.MAX_SAFE_INTEGER)) {
    return { retryAfter: Math.ceil((minuteStart + 60_000 - now) / 1000) };
  }
  counter.minute++;
  counter.day++;
  return {
    'X-RateLimit-Limit': String(minuteLimit),
    'X-RateLimit-Remaining': String(minuteLimit - counter.minute),
    'X-RateLimit-Reset': String((minuteStart + 60_000) / 1000),
  };
}

/** `limit`, `status` and `after` of a listing query, clamped as a hand-written handler would. */
export function listingQuery(query: Record<string, unknown>): { limit: number; after: number; status: string | undefined } {
  return {
    limit: Math.min(100, Math.max(1, Number(query['limit'] ?? 20) || 20)),
    after: Number(query['after'] ?? 0) || 0,
    status: typeof query['status'] === 'string' ? query['status'] : undefined,
  };
}

/** The `Link` to the next page, when there is one. */
export function nextPageLink(status: string | undefined, limit: number, lastId: number): string {
  return `<http://127.0.0.1/v1/pets?${status ? `status=${status}&` : ''}limit=${limit}&after=${lastId}>; rel="next"`;
}

/** A small request body as text (a hand-written handler's body parsing). */
export async function readBody(ctx: { req: AsyncIterable<Buffer> }): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
