import { fetchAllPages, type ServerProcess } from '@petstore/test-support';

export interface StoredPet {
  id: number;
  name: string;
  categoryId: number;
  status: string;
}

export const auth = (key: string) => ({ Authorization: `Bearer ${key}` });

/** POST /v1/pets with a JSON body. */
export function postPet(server: ServerProcess, key: string, name: string): Promise<Response> {
  return fetch(`${server.url}/pets`, {
    method: 'POST',
    headers: { ...auth(key), 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, categoryId: 1 }),
  });
}

/** Every pet the server has, following the `Link: rel="next"` pages. */
export const listAllPets = (server: ServerProcess, key: string): Promise<StoredPet[]> =>
  fetchAllPages<StoredPet>(`${server.url}/pets?limit=100`, auth(key));

export interface LimitedAnswer {
  status: number;
  /** The Error body's code (`rate_limited`, `key_banned`), for error answers. */
  code: string | null;
  /** X-RateLimit-Reset: which minute window counted the request. */
  reset: string;
}

async function toLimitedAnswer(response: Response): Promise<LimitedAnswer> {
  const body = response.status >= 400 ? ((await response.json()) as { code: string }) : (await response.arrayBuffer(), null);
  return { status: response.status, code: body?.code ?? null, reset: response.headers.get('x-ratelimit-reset') ?? '' };
}

/**
 * The answers counted in one minute window that ended in a `rate_limited` 429: sends `send()` until one arrives,
 * then keeps the answers of that 429's window (a `key_banned` answer belongs to no window). Where the wall clock
 * stands inside the minute does not matter: a window that ends mid-burst simply starts a new one.
 */
export async function burstUntilLimited(send: () => Promise<Response>[], maxRounds = 10): Promise<LimitedAnswer[]> {
  const answers: LimitedAnswer[] = [];
  for (let round = 0; round < maxRounds; round++) {
    answers.push(...(await Promise.all(send().map(async (response) => toLimitedAnswer(await response)))));
    const limited = answers.find((answer) => answer.code === 'rate_limited');
    if (limited) return answers.filter((answer) => answer.reset === limited.reset && answer.code !== 'key_banned');
  }
  throw new Error(`no rate_limited answer after ${answers.length} requests`);
}
