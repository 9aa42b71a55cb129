import { describe, expect, it, jest } from '@jest/globals';
import { resolveOptions } from './options.js';
import { RateLimitGate } from './RateLimitGate.js';
import { sendRequest } from './sendRequest.js';
import { FakeService } from './testing/FakeService.js';
import { settle, withFakeTime } from './testing/fakeTime.js';

describe('sendRequest with bypassGate (for a usage endpoint such as GET /rate_limit)', () => {
  withFakeTime();

  it('is sent while the key’s gate is shut, and returns its own 429 at once instead of waiting it out', async () => {
    const service = new FakeService({ perMinute: 100 });
    const options = resolveOptions({ baseUrl: service.baseUrl, apiKey: service.apiKey, fetch: service.fetch, rateLimit: { maxWaitMs: 3_600_000 } });
    const gate = new RateLimitGate();
    service.banFor(900);
    const gated = sendRequest(options, gate, { operation: 'listPets', method: 'GET', path: '/pets' });
    await jest.advanceTimersByTimeAsync(1_000); // answered key_banned: the gate is shut for 900 s

    const [bypassing] = await settle(
      [sendRequest(options, gate, { operation: 'getRateLimit', method: 'GET', path: '/pets', bypassGate: true })],
      10_000,
    );

    expect(bypassing).toMatchObject({ status: 'rejected', reason: { code: 'key_banned', retryAfter: 899 } });
    expect(service.log).toHaveLength(2);
    await settle([gated]);
  });
});
