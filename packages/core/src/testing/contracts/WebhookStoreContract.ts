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
/** An endpoint with a new id (the contracts' builder). */
export function anEndpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
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

/** The next attempt of `delivery`, failed with a 500 unless told otherwise. */
export function anAttempt(delivery: Delivery, at: Date, overrides: Partial<DeliveryAttempt> = {}): DeliveryAttempt {
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
    // A probe awaits its outcome for a minute.
    const dispatch = (at: Date, limit: number) => h.queue.dispatch(at, limit, new Date(at.getTime() + 60_000));
    const succeeded = (delivery: Delivery, at: Date) =>
      h.queue.record(anAttempt(delivery, at, { statusCode: 204, error: null, responseBody: '', succeeded: true }), { state: 'succeeded' });
    const hold = (endpointId: string, until: Date) => h.queue.hold(new Map([[endpointId, until]]));
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
      const found = await h.endpoints.findByIds([c.id, 'we_ffffffffffffffff', a.id]);
      expect(found.sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual([a, c]);
      expect(await h.endpoints.findByIds([])).toEqual([]);
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
      expect(await dispatch(t0, 10)).toBe(2);
      expect(await dispatch(t0, 10)).toBe(0);
      const claimed = await claim(t0, later(60_000), 10);
      expect(claimed.map((d) => d.endpointId).sort()).toEqual([all.id, all.id, updatesOnly.id].sort());
      expect(claimed.every((d) => d.attempts === 0 && /^evt_/.test(d.eventId))).toBe(true);
      expect(await h.queue.backlog()).toEqual({ pending: 3, undispatched: 0, oldestDueAt: later(60_000) });
    });

    it('hands a due delivery to one claim until its lease ends, then again; retries when recorded so, never after success', async () => {
      const endpoint = anEndpoint();
      await h.endpoints.create(endpoint);
      await h.pets.create(aPetDraft(), eventsOfCreate());
      await dispatch(t0, 10);
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
      // Tried again since: the retry it scheduled is no longer the delivery's next attempt.
      expect(attempts[1]).toEqual({ ...anAttempt(delivery!, later(30_000)), nextAttemptAt: null });
      expect(await h.queue.listAttempts({ endpointId: endpoint.id, before: attempts[0]!, limit: 10 })).toEqual([attempts[1]]);
    });

    it('enqueues a replay of one event to one endpoint, and drops the pending deliveries of a deleted endpoint', async () => {
      const endpoint = anEndpoint();
      await h.endpoints.create(endpoint);
      await h.pets.create(aPetDraft(), eventsOfCreate());
      await h.pets.create(aPetDraft(), eventsOfCreate());
      await dispatch(t0, 10);
      const [first, second] = await claim(t0, later(1000), 10);
      await h.queue.record(anAttempt(first!, t0, { statusCode: 204, error: null, responseBody: '', succeeded: true }), { state: 'succeeded' });
      const replay = await h.queue.enqueue(first!.eventId, endpoint.id, later(5000));
      expect(replay).toEqual({ id: expect.any(Number), eventId: first!.eventId, endpointId: endpoint.id, attempts: 0 });
      expect(await claim(later(5000), later(9000), 10)).toEqual([second, replay]);
      await h.endpoints.delete(endpoint.id);
      expect(await claim(later(100_000), later(200_000), 10)).toEqual([]);
    });

    it('queues one replay of an event to an endpoint at a time, however many are asked for at once', async () => {
      const endpoint = anEndpoint();
      await h.endpoints.create(endpoint);
      await h.pets.create(aPetDraft(), eventsOfCreate());
      await dispatch(t0, 10);
      // The event's first delivery, claimed and still pending, does not count.
      const [first] = await claim(t0, later(30_000), 10);
      const replays = await Promise.all(Array.from({ length: 100 }, () => h.queue.enqueue(first!.eventId, endpoint.id, later(1000))));
      const queued = replays.filter((r) => r !== null);
      expect(queued).toEqual([{ id: expect.any(Number), eventId: first!.eventId, endpointId: endpoint.id, attempts: 0 }]);
      expect(await claim(later(1000), later(2000), 10)).toEqual(queued);
      expect(await h.queue.enqueue(first!.eventId, endpoint.id, later(1000))).toBeNull();
      await h.queue.record(anAttempt(queued[0]!, later(1000), { statusCode: 204, error: null, responseBody: '', succeeded: true }), {
        state: 'succeeded',
      });
      // Once it has ended, another may be queued.
      expect(await h.queue.enqueue(first!.eventId, endpoint.id, later(3000))).toMatchObject({ eventId: first!.eventId, attempts: 0 });
    });

    it('never hands one delivery, or dispatches one event, to two concurrent callers', async () => {
      for (let i = 0; i < 3; i++) await h.endpoints.create(anEndpoint());
      await Promise.all(Array.from({ length: 20 }, () => h.pets.create(aPetDraft(), eventsOfCreate())));
      const dispatched = await Promise.all(Array.from({ length: 5 }, () => dispatch(t0, 7)));
      expect(dispatched.reduce((a, b) => a + b, 0) + (await dispatch(t0, 100))).toBe(20);
      const claims = await Promise.all(Array.from({ length: 6 }, () => claim(t0, later(60_000), 13)));
      const ids = claims.flat().map((d) => d.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length + (await claim(t0, later(60_000), 100)).length).toBe(60);
    });
    it("claims each endpoint's share in turns, soonest due first within a turn, none of an endpoint without a share", async () => {
      const [a, b, c] = [anEndpoint(), anEndpoint(), anEndpoint()];
      for (const endpoint of [a, b, c]) await h.endpoints.create(endpoint);
      for (let i = 0; i < 3; i++) await h.pets.create(aPetDraft(), eventsOfCreate());
      await dispatch(t0, 10);
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
      await dispatch(t0, 10);
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
      await dispatch(t0, 10);
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
    it("shows a delivery's next attempt on its latest attempt while it waits; not once tried again, succeeded, given up or dropped", async () => {
      const endpoint = anEndpoint();
      await h.endpoints.create(endpoint);
      for (let i = 0; i < 3; i++) await h.pets.create(aPetDraft(), eventsOfCreate());
      await dispatch(t0, 10);
      const [retried, waiting, abandoned] = await claim(t0, later(30_000), 10);
      await h.queue.record(anAttempt(retried!, t0), { state: 'pending', nextAttemptAt: later(5000) });
      await h.queue.record(anAttempt(waiting!, t0), { state: 'pending', nextAttemptAt: later(6000) });
      await h.queue.record(anAttempt(abandoned!, t0), { state: 'failed' });
      const nextOf = async () =>
        new Map(
          (await h.queue.listAttempts({ endpointId: endpoint.id, before: null, limit: 10 })).map((a) => [
            `${a.deliveryId}/${a.attempt}`,
            a.nextAttemptAt,
          ]),
        );
      expect(await nextOf()).toEqual(
        new Map([
          [`${retried!.id}/1`, later(5000)],
          [`${waiting!.id}/1`, later(6000)],
          [`${abandoned!.id}/1`, null],
        ]),
      );
      const [again] = await claim(later(5000), later(60_000), 10);
      expect(again!.id).toBe(retried!.id);
      // Claimed and in flight: still the retry it is.
      expect((await nextOf()).get(`${retried!.id}/1`)).toEqual(later(5000));
      await h.queue.record(anAttempt(again!, later(5000), { statusCode: 200, error: null, succeeded: true }), { state: 'succeeded' });
      await h.queue.drop(endpoint.id);
      expect(await nextOf()).toEqual(
        new Map([
          [`${retried!.id}/2`, null],
          [`${retried!.id}/1`, null],
          [`${waiting!.id}/1`, null],
          [`${abandoned!.id}/1`, null],
        ]),
      );
    });

    it('drops the pending deliveries of one endpoint, and only those', async () => {
      const [kept, dropped] = [anEndpoint(), anEndpoint()];
      for (const endpoint of [kept, dropped]) await h.endpoints.create(endpoint);
      for (let i = 0; i < 2; i++) await h.pets.create(aPetDraft(), eventsOfCreate());
      await dispatch(t0, 10);
      expect(await h.queue.drop(dropped.id)).toBe(2);
      expect((await claim(t0, later(30_000), 10)).map((d) => d.endpointId)).toEqual([kept.id, kept.id]);
    });

    it('gives a held endpoint no event until its hold is due, then one probe at a time, then what it is owed in batches once one succeeded', async () => {
      const [live, held] = [anEndpoint(), anEndpoint()];
      for (const endpoint of [live, held]) await h.endpoints.create(endpoint);
      await hold(held.id, later(10_000));
      for (let i = 0; i < 5; i++) await h.pets.create(aPetDraft({ name: `Pet ${i}` }), eventsOfCreate());
      const given: Delivery[] = [];
      const claimAll = async (at: Date) => {
        const claimed = await claim(at, later(1_000_000), 100);
        given.push(...claimed.filter((d) => d.endpointId === held.id));
        return claimed;
      };
      expect(await dispatch(t0, 10)).toBe(5);
      expect((await claimAll(t0)).map((d) => d.endpointId)).toEqual(Array(5).fill(live.id));
      await dispatch(later(9_999), 10);
      expect(await claimAll(later(9_999))).toEqual([]);
      // Due: one probe, the first event it is owed, and nothing more while that probe is out.
      await dispatch(later(10_000), 10);
      const [probe] = await claimAll(later(10_000));
      await dispatch(later(10_001), 10);
      expect(await claimAll(later(10_001))).toEqual([]);
      // The probe failed: held again, its place kept; the next probe is the next event.
      await h.queue.record(anAttempt(probe!, later(10_001)), { state: 'pending', nextAttemptAt: later(5_000_000) });
      await hold(held.id, later(20_000));
      await dispatch(later(19_999), 10);
      expect(await claimAll(later(19_999))).toEqual([]);
      await dispatch(later(20_000), 10);
      const [second] = await claimAll(later(20_000));
      // It answered: what it is owed comes in batches (here of 2), then it gets each event as it is dispatched.
      await succeeded(second!, later(20_001));
      await dispatch(later(20_001), 2);
      expect(await claimAll(later(20_001))).toHaveLength(2);
      await dispatch(later(20_002), 2);
      expect(await claimAll(later(20_002))).toHaveLength(1);
      await h.pets.create(aPetDraft({ name: 'Last' }), eventsOfCreate());
      expect(await dispatch(later(20_003), 2)).toBe(1);
      expect((await claimAll(later(20_003))).map((d) => d.endpointId).sort()).toEqual([live.id, held.id].sort());
      const events = (await claim(later(1_000_000), later(2_000_000), 100)).filter((d) => d.endpointId === live.id).map((d) => d.eventId);
      expect(given.map((d) => d.eventId)).toEqual(events.sort((a, b) => (a < b ? -1 : 1)));
    });

    it('holds only enabled endpoints, keeps the place of one held already, and drops the hold with its deliveries', async () => {
      const [held, disabled] = [anEndpoint(), anEndpoint({ disabled: true, disabledReason: 'manual' })];
      for (const endpoint of [held, disabled]) await h.endpoints.create(endpoint);
      await hold(held.id, t0);
      await hold(disabled.id, t0);
      await hold('we_ffffffffffffffff', t0);
      await h.pets.create(aPetDraft({ name: 'One' }), eventsOfCreate());
      await h.pets.create(aPetDraft({ name: 'Two' }), eventsOfCreate());
      await dispatch(t0, 10);
      const [probe] = await claim(t0, later(1_000_000), 10);
      await hold(held.id, later(1_000));
      await succeeded(probe!, later(1_000));
      await dispatch(later(1_000), 10);
      const [next] = await claim(later(1_000), later(1_000_000), 10);
      expect([probe!.endpointId, next!.endpointId]).toEqual([held.id, held.id]);
      expect(next!.eventId).not.toBe(probe!.eventId);
      // Enabled again, the endpoint that was disabled when held is live; one whose hold was dropped too.
      expect(await h.endpoints.save({ ...disabled, disabled: false, disabledReason: null })).toBe(true);
      await hold(held.id, later(1_000_000));
      await h.queue.drop(held.id);
      await h.pets.create(aPetDraft({ name: 'Three' }), eventsOfCreate());
      await dispatch(later(2_000), 10);
      expect((await claim(later(2_000), later(1_000_000), 10)).map((d) => d.endpointId).sort()).toEqual([held.id, disabled.id].sort());
    });

    it('gives every endpoint each event exactly once, whatever dispatches, holds and successes run at the same time', async () => {
      const endpoints = [anEndpoint(), anEndpoint(), anEndpoint()];
      for (const endpoint of endpoints) await h.endpoints.create(endpoint);
      const given: Delivery[] = [];
      const succeedAll = async (at: Date) => {
        const claimed = await claim(at, later(1_000_000), 1_000);
        given.push(...claimed);
        await Promise.all(claimed.map((d) => succeeded(d, at)));
        return claimed.length;
      };
      for (let round = 0; round < 6; round++) {
        await Promise.all([
          ...Array.from({ length: 4 }, (_, i) => h.pets.create(aPetDraft({ name: `Pet ${round}.${i}` }), eventsOfCreate())),
          dispatch(t0, 3),
          dispatch(t0, 3),
          h.queue.hold(new Map(endpoints.filter((_, i) => i !== round % 3).map((endpoint) => [endpoint.id, t0]))),
          hold(endpoints[round % 3]!.id, t0),
          succeedAll(t0),
        ]);
      }
      for (let quiet = 0; quiet < 2;) quiet = (await dispatch(t0, 1_000)) + (await succeedAll(t0)) === 0 ? quiet + 1 : 0;
      const pairs = given.map((d) => `${d.endpointId} ${d.eventId}`);
      expect(new Set(pairs).size).toBe(pairs.length);
      expect(pairs).toHaveLength(3 * 24);
    });
  });
}
