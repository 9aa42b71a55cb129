import { beforeEach, describe, expect, it } from '@jest/globals';
import type { ClaimRequest, DeliveryQueue } from '../../ports/DeliveryQueue.js';
import type { PetRepository } from '../../ports/PetRepository.js';
import type { WebhookEndpointStore } from '../../ports/WebhookEndpointStore.js';
import { attemptIdOf, type Delivery, type DeliveryAttempt } from '../../webhooks/Delivery.js';
import type { WebhookEndpoint } from '../../webhooks/WebhookEndpoint.js';
import { aPetDraft } from '../builders.js';
import { openHarness, type Closable } from './harness.js';
import { eventsOfCreate, eventsOfUpdate } from '../../events/PetEvent.js';

/** A pet repository (whose changes record the events) and the endpoint store and delivery queue on the same storage. */
export type WebhookStoreHarness = { pets: PetRepository; endpoints: WebhookEndpointStore; queue: DeliveryQueue } & Closable;

let endpointCount = 0;
function anEndpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  endpointCount += 1;
  return {
    id: `we_${endpointCount.toString(16).padStart(16, '0')}`,
    url: `https://hooks.example.com/${endpointCount}`,
    eventTypes: ['pet.created', 'pet.updated'],
    description: `endpoint ${endpointCount}`,
    disabled: false,
    disabledReason: null,
    createdAt: new Date(Date.UTC(2026, 5, 1, 0, 0, endpointCount)),
    secret: `whsec_${Buffer.from(`secret ${endpointCount}`.padEnd(24, '.')).toString('base64')}`,
    previousSecret: null,
    previousSecretExpiresAt: null,
    version: 1,
    ...overrides,
  };
}

function anAttempt(delivery: Delivery, at: Date, overrides: Partial<DeliveryAttempt> = {}): DeliveryAttempt {
  const attempt = delivery.attempts + 1;
  return {
    id: attemptIdOf(delivery.id, attempt),
    deliveryId: delivery.id,
    eventId: delivery.eventId,
    endpointId: delivery.endpointId,
    attempt,
    at,
    statusCode: 500,
    durationMs: 12,
    error: 'the receiver answered 500',
    responseBody: 'oops',
    succeeded: false,
    ...overrides,
  };
}

/** Runs the behaviour every WebhookEndpointStore and DeliveryQueue must have against `open()`, which returns empty storage. */
export function describeWebhookStoreContract(name: string, open: () => Promise<WebhookStoreHarness>): void {
  describe(`${name} satisfies the WebhookEndpointStore and DeliveryQueue contracts`, () => {
    const harness = openHarness(open, 'each');
    let h: WebhookStoreHarness;
    beforeEach(() => {
      h = harness();
    });
    const t0 = new Date('2026-06-01T12:00:00Z');
    const later = (ms: number) => new Date(t0.getTime() + ms);
    const claim = (now: Date, leaseUntil: Date, limit: number, share: Partial<ClaimRequest> = {}) =>
      h.queue.claim({ now, leaseUntil, limit, perEndpoint: 100, slots: new Map(), ...share });

    it('keeps endpoints with their secrets, lists them oldest first, changes and deletes them', async () => {
      const [a, b, c] = [
        anEndpoint(),
        anEndpoint({ eventTypes: ['pet.updated'], previousSecret: 'whsec_b2xk', previousSecretExpiresAt: t0 }),
        anEndpoint(),
      ];
      for (const endpoint of [c, a, b]) await h.endpoints.create(endpoint);
      expect(await h.endpoints.findById(b.id)).toEqual(b);
      expect(await h.endpoints.findById('we_ffffffffffffffff')).toBeNull();
      expect(await h.endpoints.list({ after: null, limit: 2 })).toEqual([a, b]);
      expect(await h.endpoints.list({ after: { at: b.createdAt, id: b.id }, limit: 2 })).toEqual([c]);
      const changed = { ...a, url: 'https://elsewhere.example.com/', disabled: true, disabledReason: 'gone' as const };
      expect(await h.endpoints.save(changed)).toBe(true);
      expect(await h.endpoints.findById(a.id)).toEqual({ ...changed, version: 2 });
      // A change decided on version 1 comes too late: another one was saved since.
      expect(await h.endpoints.save({ ...a, description: 'stale' })).toBe(false);
      expect(await h.endpoints.findById(a.id)).toEqual({ ...changed, version: 2 });
      expect(await h.endpoints.save(anEndpoint())).toBe(false);
      expect(await h.endpoints.delete(a.id)).toBe(true);
      expect(await h.endpoints.delete(a.id)).toBe(false);
      expect(await h.endpoints.findById(a.id)).toBeNull();
    });

    it('lets exactly one of concurrent saves from one version through', async () => {
      const endpoint = anEndpoint();
      await h.endpoints.create(endpoint);
      const saved = await Promise.all(Array.from({ length: 10 }, (_, i) => h.endpoints.save({ ...endpoint, description: `racer ${i}` })));
      expect(saved.filter(Boolean)).toHaveLength(1);
      expect(await h.endpoints.findById(endpoint.id)).toMatchObject({ version: 2, description: `racer ${saved.indexOf(true)}` });
    });

    it('dispatches each event once, to the enabled endpoints subscribed to its type', async () => {
      const all = anEndpoint();
      const updatesOnly = anEndpoint({ eventTypes: ['pet.updated'] });
      const disabled = anEndpoint({ disabled: true, disabledReason: 'manual' });
      for (const endpoint of [all, updatesOnly, disabled]) await h.endpoints.create(endpoint);
      const rex = await h.pets.create(aPetDraft(), eventsOfCreate());
      await h.pets.update(rex.id, 1, { ...aPetDraft(), status: 'sold' }, { at: Date.now(), requestedAt: Date.now() }, eventsOfUpdate(rex));
      expect(await h.queue.backlog()).toEqual({ pending: 0, undispatched: 2, oldestDueAt: expect.any(Date) });
      expect(await h.queue.dispatch(t0, 10)).toBe(2);
      expect(await h.queue.dispatch(t0, 10)).toBe(0);
      const claimed = await claim(t0, later(60_000), 10);
      expect(claimed.map((d) => d.endpointId).sort()).toEqual([all.id, all.id, updatesOnly.id].sort());
      expect(claimed.every((d) => d.attempts === 0 && /^evt_/.test(d.eventId))).toBe(true);
      expect(await h.queue.backlog()).toEqual({ pending: 3, undispatched: 0, oldestDueAt: later(60_000) });
    });

    it('hands a due delivery to one claim until its lease ends, then again; retries when recorded so, never after success', async () => {
      const endpoint = anEndpoint();
      await h.endpoints.create(endpoint);
      await h.pets.create(aPetDraft(), eventsOfCreate());
      await h.queue.dispatch(t0, 10);
      const [delivery] = await claim(t0, later(30_000), 10);
      expect(await claim(later(29_999), later(60_000), 10)).toEqual([]);
      expect(await claim(later(30_000), later(60_000), 10)).toEqual([delivery]);
      await h.queue.record(anAttempt(delivery!, later(30_000)), { state: 'pending', nextAttemptAt: later(35_000) });
      expect(await claim(later(34_999), later(90_000), 10)).toEqual([]);
      const [again] = await claim(later(35_000), later(90_000), 10);
      expect(again).toEqual({ ...delivery, attempts: 1 });
      await h.queue.record(anAttempt(again!, later(35_000), { statusCode: 204, error: null, responseBody: '', succeeded: true }), {
        state: 'succeeded',
      });
      expect(await claim(later(10_000_000), later(20_000_000), 10)).toEqual([]);
      expect(await h.queue.backlog()).toEqual({ pending: 0, undispatched: 0, oldestDueAt: null });
      const attempts = await h.queue.listAttempts({ endpointId: endpoint.id, before: null, limit: 10 });
      expect(attempts.map((a) => [a.attempt, a.statusCode, a.succeeded])).toEqual([
        [2, 204, true],
        [1, 500, false],
      ]);
      expect(attempts[1]).toEqual(anAttempt(delivery!, later(30_000)));
      expect(await h.queue.listAttempts({ endpointId: endpoint.id, before: attempts[0]!, limit: 10 })).toEqual([attempts[1]]);
    });

    it('enqueues a replay of one event to one endpoint, and drops the pending deliveries of a deleted endpoint', async () => {
      const endpoint = anEndpoint();
      await h.endpoints.create(endpoint);
      await h.pets.create(aPetDraft(), eventsOfCreate());
      await h.queue.dispatch(t0, 10);
      const [first] = await claim(t0, later(1000), 10);
      const replay = await h.queue.enqueue(first!.eventId, endpoint.id, later(5000));
      expect(replay).toEqual({ id: expect.any(Number), eventId: first!.eventId, endpointId: endpoint.id, attempts: 0 });
      expect(await claim(later(5000), later(9000), 10)).toEqual([first, replay].sort((a, b) => a!.id - b!.id));
      await h.endpoints.delete(endpoint.id);
      expect(await claim(later(100_000), later(200_000), 10)).toEqual([]);
    });

    it('never hands one delivery, or dispatches one event, to two concurrent callers', async () => {
      for (let i = 0; i < 3; i++) await h.endpoints.create(anEndpoint());
      await Promise.all(Array.from({ length: 20 }, () => h.pets.create(aPetDraft(), eventsOfCreate())));
      const dispatched = await Promise.all(Array.from({ length: 5 }, () => h.queue.dispatch(t0, 7)));
      expect(dispatched.reduce((a, b) => a + b, 0) + (await h.queue.dispatch(t0, 100))).toBe(20);
      const claims = await Promise.all(Array.from({ length: 6 }, () => claim(t0, later(60_000), 13)));
      const ids = claims.flat().map((d) => d.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length + (await claim(t0, later(60_000), 100)).length).toBe(60);
    });
    it("claims each endpoint's share in turns, soonest due first within a turn, none of an endpoint without a share", async () => {
      const [a, b, c] = [anEndpoint(), anEndpoint(), anEndpoint()];
      for (const endpoint of [a, b, c]) await h.endpoints.create(endpoint);
      for (let i = 0; i < 3; i++) await h.pets.create(aPetDraft(), eventsOfCreate());
      await h.queue.dispatch(t0, 10);
      // Three deliveries due per endpoint; b may have two, c none (paused), the others one each.
      const shares = {
        perEndpoint: 1,
        slots: new Map([
          [b.id, 2],
          [c.id, 0],
        ]),
      };
      const first = await claim(t0, later(30_000), 2, shares);
      expect(first.map((d) => d.endpointId).sort()).toEqual([a.id, b.id].sort());
      const second = await claim(t0, later(30_000), 10, shares);
      expect(second.map((d) => d.endpointId).sort()).toEqual([a.id, b.id, b.id].sort());
      const third = await claim(t0, later(30_000), 10, { slots: new Map([[b.id, 0]]) });
      expect(third.map((d) => d.endpointId).sort()).toEqual([a.id, c.id, c.id, c.id].sort());
    });

    it('records an attempt once: a repeat, or an older attempt, changes nothing; each record of a batch stands alone', async () => {
      const endpoint = anEndpoint();
      await h.endpoints.create(endpoint);
      await h.pets.create(aPetDraft(), eventsOfCreate());
      await h.pets.create(aPetDraft(), eventsOfCreate());
      await h.queue.dispatch(t0, 10);
      const [one, two] = await claim(t0, later(30_000), 10);
      const delivered = anAttempt(one!, t0, { statusCode: 200, error: null, responseBody: 'ok', succeeded: true });
      await h.queue.record(delivered, { state: 'succeeded' });
      await Promise.all([
        h.queue.record({ ...delivered, statusCode: 500, succeeded: false }, { state: 'pending', nextAttemptAt: later(1000) }),
        h.queue.record(anAttempt(two!, t0), { state: 'pending', nextAttemptAt: later(1000) }),
      ]);
      expect(await claim(later(1000), later(30_000), 10)).toEqual([{ ...two, attempts: 1 }]);
      const attempts = await h.queue.listAttempts({ endpointId: endpoint.id, before: null, limit: 10 });
      expect(attempts.map((a) => [a.deliveryId, a.statusCode])).toEqual(
        expect.arrayContaining([
          [one!.id, 200],
          [two!.id, 500],
        ]),
      );
      expect(attempts).toHaveLength(2);
    });
    it('stores each record of a batch alone: one that cannot be stored fails neither the others nor itself twice', async () => {
      const endpoint = anEndpoint();
      await h.endpoints.create(endpoint);
      for (let i = 0; i < 3; i++) await h.pets.create(aPetDraft(), eventsOfCreate());
      await h.queue.dispatch(t0, 10);
      const [bad, good, other] = await claim(t0, later(30_000), 10);
      const retry = { state: 'pending', nextAttemptAt: later(1000) } as const;
      // Text no PostgreSQL text column holds (the core makes it storable first: storableText).
      const results = await Promise.allSettled([
        h.queue.record(anAttempt(bad!, t0, { responseBody: 'nul \u0000 and half a pair \uD83D' }), retry),
        h.queue.record(anAttempt(good!, t0, { statusCode: 204, error: null, responseBody: 'ok', succeeded: true }), { state: 'succeeded' }),
        h.queue.record(anAttempt(other!, t0), retry),
      ]);
      expect(results.slice(1).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      const attempts = await h.queue.listAttempts({ endpointId: endpoint.id, before: null, limit: 10 });
      expect(
        attempts
          .filter((a) => a.deliveryId !== bad!.id)
          .map((a) => a.deliveryId)
          .sort(),
      ).toEqual([good!.id, other!.id].sort());
      const again = await claim(later(1000), later(30_000), 10);
      expect(again.map((d) => d.id)).not.toContain(good!.id);
      expect(again.find((d) => d.id === other!.id)).toEqual({ ...other, attempts: 1 });
    });
    it('drops the pending deliveries of one endpoint, and only those', async () => {
      const [kept, dropped] = [anEndpoint(), anEndpoint()];
      for (const endpoint of [kept, dropped]) await h.endpoints.create(endpoint);
      for (let i = 0; i < 2; i++) await h.pets.create(aPetDraft(), eventsOfCreate());
      await h.queue.dispatch(t0, 10);
      expect(await h.queue.drop(dropped.id)).toBe(2);
      expect((await claim(t0, later(30_000), 10)).map((d) => d.endpointId)).toEqual([kept.id, kept.id]);
    });
  });
}
