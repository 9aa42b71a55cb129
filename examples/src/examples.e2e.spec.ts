// The docs' runnable examples, run as a reader would run them (built, with node): they must keep working.
import { describe, expect, it } from '@jest/globals';
import { runNodeProcess } from '@petstore/test-support';

const built = (name: string) => new URL(`../dist/${name}`, import.meta.url).pathname;

describe('the examples of the docs', () => {
  it.each([
    [
      'embed-core.js',
      'embeds the core: issues a key, admits a request, creates and lists pets, refuses a bad pet',
      [
        /^key_[0-9a-f]{16} admitted: 299 of 300 requests left this minute$/m,
        /^pending: \[\s+\{ id: 2, name: 'Mia', categoryId: 2, status: 'pending', version: 1 \}\s+\]$/m,
        /^refused: validation_error$/m,
      ],
    ],
    [
      'mount-in-koa.js',
      'mounts the API in a Koa app under a prefix, beside the host app',
      [
        // Location names the port the example listens on, which answers it.
        /^201 http:\/\/127\.0\.0\.1:(?!8080\/)\d+\/shelter\/v1\/pets\/1 \{ id: 1, name: 'Rex', categoryId: 1, status: 'available' \}$/m,
        /^200 at the Location$/m,
        /^200 X-RateLimit-Remaining: \d+ /m,
        /^401 without a key$/m,
        /^\{ hello: 'from the host app' \}$/m,
      ],
    ],
    [
      'mount-in-koa-router.js',
      "mounts the API in the host app's @koa/router router under a mount path, beside the host's routes",
      [
        /^201 http:\/\/127\.0\.0\.1:\d+\/api\/v1\/pets\/1$/m,
        /^200 \{ id: 1, name: 'Rex', categoryId: 1, status: 'available' \}$/m,
        /^405 for DELETE, as the API answers it$/m,
        /^\{ hello: 'from the host app' \}$/m,
      ],
    ],
    ['swap-an-adapter.js', 'starts the whole server with an adapter rebound, and stops it', [/^\/livez answers 200$/m]],
    [
      'own-typeorm-datasource.js',
      "runs the pet store on the embedder's own TypeORM DataSource and SQLite file, beside the embedder's own table",
      [
        /^migrated: InitialSchema1763769600000, CreateIdempotencyKeys1763856000000, CoveringStatusIndex1763942400000, KeyModel1764028800000, RateLimitBans1764230400000, PetVersion1764316800000, PetEvents1764403200000, Webhooks1764489600000, DeliveriesByEndpoint1764576000000, AttemptsByAge1764662400000, AttemptRetryTimes1764687600000, LimitedRequestsPerDay1764691200000, WebhookHolds1764705600000, ResendsMarked1764748800000, CreateVisits1790000000000$/m,
        /^schema changes pending: 0$/m,
        /^key_[0-9a-f]{16} admitted, 59 requests left this minute$/m,
        /^listed: \[\s+\{\s+id: 1,\s+name: 'Rex',\s+categoryId: 1,\s+status: 'available',\s+version: 1\s+\}\s+\]$/m,
        /^visits: \[ \{ id: 1, petId: 1, visitor: 'Ada' \} \]$/m,
      ],
    ],
  ] as [string, string, RegExp[]][])('%s %s', async (file, _what, expected) => {
    const result = await runNodeProcess(built(file), []);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    for (const line of expected) expect(result.stdout).toMatch(line);
  });
});
