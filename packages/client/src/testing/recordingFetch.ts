/** One exchange as a recording `fetch` saw it: sent, and fully answered (body read). */
export interface Exchange {
  sentAtMs: number;
  answeredAtMs: number;
  status: number;
  code?: string;
  retryAfter?: number;
}

/**
 * The platform's `fetch`, recording every exchange for assertions on what a client sent and when. The body is read
 * before the answer is handed on, so `answeredAtMs` is no later than the moment the client could know the answer.
 */
export function recordingFetch(): { fetch: typeof fetch; exchanges: Exchange[] } {
  const exchanges: Exchange[] = [];
  const recording: typeof fetch = async (input, init) => {
    const sentAtMs = Date.now();
    const response = await fetch(input, init);
    const body = await response.text();
    const exchange: Exchange = { sentAtMs, answeredAtMs: Date.now(), status: response.status };
    if (response.status >= 400) {
      exchange.code = (JSON.parse(body) as { code: string }).code;
      if (response.headers.has('Retry-After')) exchange.retryAfter = Number(response.headers.get('Retry-After'));
    }
    exchanges.push(exchange);
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { fetch: recording, exchanges };
}

/**
 * Requests sent after a 429 had been received and before its Retry-After had passed. `slackMs`: how long after
 * the recorded answer the client may still not know it (a real clock ticks between the two; fake time does not).
 */
export function sentInsideRetryAfter<T extends { sentAtMs: number; answeredAtMs?: number; status?: number; retryAfter?: number }>(
  exchanges: T[],
  slackMs = 0,
): T[] {
  const rejections = exchanges.filter((e) => e.status === 429);
  return exchanges.filter((e) =>
    rejections.some((r) => e.sentAtMs >= r.answeredAtMs! + slackMs && e.sentAtMs < r.answeredAtMs! + r.retryAfter! * 1000),
  );
}
