import { describe, expect, it, jest } from '@jest/globals';
import { createClient, PetstoreError, type WaitEvent } from './index.js';
import { clientOf, FakeService } from './testing/FakeService.js';
import { fulfilled, settle, withFakeTime } from './testing/fakeTime.js';

const rex = { name: 'Rex', categoryId: 1 };

describe('retries (fake service, fake time)', () => {
  withFakeTime();

  it('retries a 503 no earlier than its Retry-After, with the same Idempotency-Key and request id', async () => {
    const service = new FakeService({ perMinute: 100 });
    const waits: WaitEvent[] = [];
    service.failures.push('service_unavailable');

    const [pet] = fulfilled(await settle([clientOf(service, { onWait: (e) => waits.push(e) }).createPet(rex)]));

    expect(pet).toEqual({ id: 1, name: 'Rex', categoryId: 1, status: 'available' });
    const [first, second] = service.log;
    expect([first!.status, second!.status]).toEqual([503, 201]);
    expect(second!.sentAtMs - first!.answeredAtMs!).toBeGreaterThanOrEqual(5_000);
    expect(second!.headers.get('Idempotency-Key')).toBe(first!.headers.get('Idempotency-Key'));
    expect(second!.headers.get('X-Request-Id')).toBe(first!.headers.get('X-Request-Id'));
    expect(waits).toEqual([{ operation: 'createPet', reason: 'service_unavailable', delayMs: expect.any(Number), attempt: 2 }]);
  });

  it('retries a lost answer and a network failure; the create replays instead of making a second pet', async () => {
    const service = new FakeService({ perMinute: 100 });
    service.failures.push('lose_answer', 'network_error');

    const [pet] = fulfilled(await settle([clientOf(service).createPet(rex)]));

    expect(service.log).toHaveLength(3);
    expect(new Set(service.log.map((r) => r.headers.get('Idempotency-Key'))).size).toBe(1);
    expect(service.pets).toEqual([pet]);
  });

  it('uses the caller’s own Idempotency-Key', async () => {
    const service = new FakeService({ perMinute: 100 });
    const client = clientOf(service);
    const [a, b] = fulfilled(
      await settle([client.createPet(rex, { idempotencyKey: 'form-7f3a' }), client.createPet(rex, { idempotencyKey: 'form-7f3a' })]),
    );

    expect(a).toEqual(b);
    expect(service.pets).toHaveLength(1);
    expect(service.log.map((r) => r.headers.get('Idempotency-Key'))).toEqual(['form-7f3a', 'form-7f3a']);
  });

  it('gives each attempt timeoutMs and retries one that timed out', async () => {
    const service = new FakeService({ perMinute: 100 });
    service.failures.push('hang');

    const [page] = fulfilled(await settle([clientOf(service, { timeoutMs: 2_000 }).listPets()]));

    expect(page!.pets).toEqual([]);
    expect(service.log).toHaveLength(2);
    expect(service.log[1]!.sentAtMs - service.log[0]!.sentAtMs).toBeGreaterThanOrEqual(2_000);
  });

  it('retries a proxy’s 502 page and reports it as unexpected_response with its status when it persists', async () => {
    const service = new FakeService({ perMinute: 100 });
    service.failures.push('bad_gateway', 'bad_gateway');

    const [result] = await settle([clientOf(service, { retry: { maxAttempts: 2 } }).listPets()]);

    expect(result).toMatchObject({
      status: 'rejected',
      reason: { code: 'unexpected_response', status: 502, message: 'HTTP 502 without an Error body' },
    });
    expect(service.log).toHaveLength(2);
  });

  it('gives up after retry.maxAttempts with the last error', async () => {
    const service = new FakeService({ perMinute: 100 });
    service.failures.push(...Array(10).fill('service_unavailable'));

    const [result] = await settle([clientOf(service, { retry: { maxAttempts: 3 } }).listPets()]);

    expect(result).toMatchObject({ status: 'rejected', reason: { code: 'service_unavailable', status: 503, retryAfter: 5 } });
    expect(service.log).toHaveLength(3);
  });

  it('starts no retry that would end after retry.maxElapsedMs', async () => {
    const service = new FakeService({ perMinute: 100 });
    service.failures.push(...Array(10).fill('network_error'));
    const startedAt = Date.now();

    const [result] = await settle([clientOf(service, { retry: { maxAttempts: 100, maxElapsedMs: 3_000, baseDelayMs: 1_000 } }).listPets()]);

    expect(result).toMatchObject({ status: 'rejected', reason: { code: 'network_error', status: 0 } });
    // Read from the log: settle() moves fake time in 50 ms steps, so the clock after it may be past the last attempt.
    expect(service.log.at(-1)!.sentAtMs - startedAt).toBeLessThanOrEqual(3_000);
    expect(service.log.length).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['a validation error', () => clientOf(validService()).createPet({ name: '', categoryId: 1 }), 400, 'validation_error'],
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated operation still works until its sunset
    ['an unknown pet', () => clientOf(validService()).getPet(42), 404, 'not_found'],
    [
      'a wrong key',
      () => createClient({ baseUrl: 'https://petstore.test/v1', apiKey: 'pst_wrong', fetch: validService().fetch }).listPets(),
      401,
      'unauthorized',
    ],
  ] as [string, () => Promise<unknown>, number, string][])('never retries a 4xx other than 429: %s', async (_, call, status, code) => {
    const [result] = await settle([call()]);

    expect(result).toMatchObject({ status: 'rejected', reason: { code, status } });
    expect(lastService!.log).toHaveLength(1);
  });

  it('stops a backoff wait when the call is aborted, and sends nothing more', async () => {
    const service = new FakeService({ perMinute: 100 });
    service.failures.push('service_unavailable');
    const controller = new AbortController();
    const call = clientOf(service).listPets({}, { signal: controller.signal });
    await jest.advanceTimersByTimeAsync(1_000);
    controller.abort(new Error('no longer needed'));

    await expect(call).rejects.toThrow('no longer needed');
    await jest.advanceTimersByTimeAsync(60_000);
    expect(service.log).toHaveLength(1);
  });

  it('reports the service’s Error body with the request id, recognisable by PetstoreError.is', async () => {
    const service = new FakeService({ perMinute: 100 });
    const [result] = await settle([clientOf(service).createPet({ name: '', categoryId: 1 })]);

    const error = (result as PromiseRejectedResult).reason as PetstoreError;
    expect(PetstoreError.is(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'PetstoreError',
      code: 'validation_error',
      status: 400,
      message: 'Invalid pet.',
      details: [{ field: 'name', message: 'must not be empty' }],
    });
    expect(error.requestId).toBe(service.log[0]!.headers.get('X-Request-Id'));
    expect(error.requestId).toMatch(/^[0-9a-f]{32}$/);
  });
});

let lastService: FakeService | undefined;
function validService(): FakeService {
  lastService = new FakeService({ perMinute: 100 });
  return lastService;
}
