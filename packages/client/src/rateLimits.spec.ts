import { describe, expect, it } from '@jest/globals';
import { jest } from '@jest/globals';
import { createClient, PetstoreError, type WaitEvent } from './index.js';
import { clientOf, FakeService } from './testing/FakeService.js';
import { sentInsideRetryAfter } from './testing/recordingFetch.js';
import { fulfilled, settle, withFakeTime } from './testing/fakeTime.js';

const creates = (client: ReturnType<typeof createClient>, count: number) =>
  Array.from({ length: count }, (_, i) => client.createPet({ name: `Pet ${i}`, categoryId: 1 }));

describe('the rate-limit gate (fake service, fake time)', () => {
  withFakeTime();

  it('spreads twenty concurrent creates over the windows of a 5-per-minute key without a single 429', async () => {
    const service = new FakeService({ perMinute: 5 });
    const pets = fulfilled(await settle(creates(clientOf(service, { rateLimit: { maxWaitMs: 10 * 60_000 } }), 20)));

    expect(new Set(pets.map((p) => p.id)).size).toBe(20);
    expect(service.pets).toHaveLength(20);
    expect(service.log.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(service.maxInFlight()).toBeLessThanOrEqual(5);
  });

  it('after a 429 sends nothing for the key, from any call, until its Retry-After has passed', async () => {
    const service = new FakeService({ perMinute: 5 });
    const client = clientOf(service, { rateLimit: { maxWaitMs: 10 * 60_000 } });
    await settle([client.listPets()]); // the client now believes 4 requests remain
    service.spend(4); // ... but another process of the same key spends them

    const pets = fulfilled(await settle(creates(client, 12)));

    expect(service.pets).toHaveLength(12);
    expect(new Set(pets.map((p) => p.id)).size).toBe(12);
    const statuses = service.log.map((r) => r.status);
    expect(statuses).toContain(429);
    expect(service.log.map((r) => r.code)).not.toContain('key_banned');
    expect(sentInsideRetryAfter(service.log)).toEqual([]);
  });

  it('shares one gate between every client of the same key', async () => {
    const service = new FakeService({ perMinute: 3 });
    const [a, b] = [clientOf(service), clientOf(service)];
    fulfilled(await settle([...creates(a, 4), ...creates(b, 4)]));

    expect(service.pets).toHaveLength(8);
    expect(service.log.every((r) => r.status === 201)).toBe(true);
    expect(a.rateLimit).toBe(b.rateLimit);
  });

  it('surfaces a ban at once (key_banned, retryAfter) and sends nothing more while it lasts', async () => {
    const service = new FakeService({ perMinute: 100 });
    const client = clientOf(service);
    service.banFor(900);

    const [first] = await settle([client.listPets()]);
    expect(first).toMatchObject({ status: 'rejected', reason: { code: 'key_banned', status: 429, retryAfter: 900 } });
    const later = await settle<unknown>([client.createPet({ name: 'Rex', categoryId: 1 }), client.listPets()]);

    expect(later.map((r) => r.status === 'rejected' && PetstoreError.is(r.reason) && r.reason.code)).toEqual(['key_banned', 'key_banned']);
    expect(service.log).toHaveLength(1);
  });

  it('waits a ban out when the caller allows waiting that long, sending nothing before it ends', async () => {
    const service = new FakeService({ perMinute: 100 });
    const waits: WaitEvent[] = [];
    const client = clientOf(service, { rateLimit: { maxWaitMs: 20 * 60_000 }, onWait: (event) => waits.push(event) });
    service.banFor(900);
    const bannedAt = Date.now();

    const [page] = fulfilled(await settle([client.listPets()]));

    expect(page!.pets).toEqual([]);
    expect(service.log.map((r) => r.status)).toEqual([429, 200]);
    expect(service.log[1]!.sentAtMs - bannedAt).toBeGreaterThanOrEqual(900_000);
    expect(waits).toEqual([{ operation: 'listPets', reason: 'key_banned', delayMs: expect.any(Number), attempt: 2 }]);
  });

  it('fails a call that cannot wait as long as the key must (default 2 minutes in all): nothing is sent for it', async () => {
    const service = new FakeService({ perMinute: 1 });
    const results = await settle(creates(clientOf(service), 4)); // 12:00:10: one now, one at 12:01, one at 12:02

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    expect(results[3]).toMatchObject({ reason: { code: 'rate_limited', status: 429 } });
    expect(service.log.map((r) => r.status)).toEqual([201, 201, 201]);
  });

  it('refuses at once, without sending, a call that would wait longer than rateLimit.maxWaitMs', async () => {
    const service = new FakeService({ perMinute: 1 });
    const client = clientOf(service, { rateLimit: { maxWaitMs: 10_000 } });
    await settle([client.listPets()]); // 12:00:10: the minute's only request; the window resets in 50 s

    const startedAt = Date.now();
    const [refused] = await settle([client.listPets()]);

    expect(refused).toMatchObject({ status: 'rejected', reason: { code: 'rate_limited', status: 429, retryAfter: 50 } });
    expect(Date.now() - startedAt).toBeLessThan(1_000);
    expect(service.log).toHaveLength(1);
  });

  it('tells onWait of each wait and keeps the last rate-limit state readable', async () => {
    const service = new FakeService({ perMinute: 2 });
    const waits: WaitEvent[] = [];
    const client = clientOf(service, { onWait: (event) => waits.push(event) });
    expect(client.rateLimit).toBeNull();

    fulfilled(await settle(creates(client, 3)));

    expect(waits).toEqual([{ operation: 'createPet', reason: 'quota_exhausted', delayMs: 50_020, attempt: 1 }]);
    expect(client.rateLimit).toMatchObject({ limit: 2, remaining: 1, reset: Date.parse('2026-06-01T12:02:00Z') / 1000 });
    expect(client.rateLimit!.windows).toEqual([
      { name: 'minute', limit: 2, windowSeconds: 60, remaining: 1, reset: Date.parse('2026-06-01T12:02:00Z') / 1000 },
    ]);
  });

  it('stops waiting at the gate when the call is aborted, and sends nothing for it', async () => {
    const service = new FakeService({ perMinute: 1 });
    const client = clientOf(service);
    await settle([client.listPets()]);
    const controller = new AbortController();

    const waiting = client.listPets({}, { signal: controller.signal });
    await jest.advanceTimersByTimeAsync(1_000);
    controller.abort(new Error('user left'));

    await expect(waiting).rejects.toThrow('user left');
    expect(service.log).toHaveLength(1);
  });
});
