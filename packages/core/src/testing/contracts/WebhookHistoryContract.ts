import { beforeEach, describe, expect, it } from '@jest/globals';
import { eventsOfCreate } from '../../events/PetEvent.js';
import type { ClaimRequest, DeliveryQueue } from '../../ports/DeliveryQueue.js';
import type { EventLog } from '../../ports/EventLog.js';
import type { PetRepository } from '../../ports/PetRepository.js';
import type { WebhookEndpointStore } from '../../ports/WebhookEndpointStore.js';
import type { PurgedHistory, WebhookHistory } from '../../ports/WebhookHistory.js';
import type { Delivery } from '../../webhooks/Delivery.js';
import { aPetDraft } from '../builders.js';
import { openHarness, type Closable } from './harness.js';
import { anAttempt, anEndpoint } from './WebhookStoreContract.js';

/** The history under test, and the pet repository, event log, endpoint store and delivery queue whose rows it deletes. */
export type WebhookHistoryHarness = {
  history: WebhookHistory;
  pets: PetRepository;
  events: EventLog;
  endpoints: WebhookEndpointStore;
  queue: DeliveryQueue;
} & Closable;

const sum = (purges: PurgedHistory[]): PurgedHistory =>
  purges.reduce((total, p) => ({
    events: total.events + p.events,
    deliveries: total.deliveries + p.deliveries,
    attempts: total.attempts + p.attempts,
  }));

/** Runs the behaviour every WebhookHistory must have against `open()`, which returns empty storage. */
export function describeWebhookHistoryContract(name: string, open: () => Promise<WebhookHistoryHarness>): void {
  describe(`${name} satisfies the WebhookHistory contract`, () => {
    const harness = openHarness(open, 'each');
    let h: WebhookHistoryHarness;
    beforeEach(() => {
      h = harness();
    });
    const t0 = new Date('2026-06-01T12:00:00Z');
    const later = (ms: number) => new Date(t0.getTime() + ms);
    // A probe awaits its outcome for a minute.
    const dispatch = (at: Date, limit: number) => h.queue.dispatch(at, limit, new Date(at.getTime() + 60_000));
    const claim = (now: Date, leaseUntil: Date, limit: number, share: Partial<ClaimRequest> = {}) =>
      h.queue.claim({ now, leaseUntil, limit, perEndpoint: 100, slots: new Map(), ...share });
    /** Later than every event the tests record (the adapter dates them by its clock: now). */
    const everything = () => new Date(Date.now() + 86_400_000);
    const delivered = (delivery: Delivery) => anAttempt(delivery, t0, { statusCode: 204, error: null, responseBody: '', succeeded: true });

    /** One endpoint; three events dispatched and attempted once: delivered, to be retried, failed for good. */
    async function historyOfThree() {
      const endpoint = anEndpoint();
      await h.endpoints.create(endpoint);
      for (let i = 0; i < 3; i++) await h.pets.create(aPetDraft(), eventsOfCreate());
      await dispatch(t0, 10);
      const [done, retried, failed] = await claim(t0, later(30_000), 10);
      await h.queue.record(delivered(done!), { state: 'succeeded' });
      await h.queue.record(anAttempt(retried!, t0), { state: 'pending', nextAttemptAt: later(60_000) });
      await h.queue.record(anAttempt(failed!, t0), { state: 'failed' });
      return { endpoint, retried: retried! };
    }

    it('deletes what is older than the cutoff, but never a pending delivery, its event, or an event not dispatched yet', async () => {
      const { endpoint, retried } = await historyOfThree();
      await h.pets.create(aPetDraft(), eventsOfCreate());
      const [undispatched] = await h.events.listEvents({ before: null, limit: 1 });
      expect(await h.history.purge(everything(), 100)).toEqual({ events: 2, deliveries: 2, attempts: 3 });
      const kept = await h.events.listEvents({ before: null, limit: 10 });
      expect(kept.map((e) => e.id).sort()).toEqual([retried.eventId, undispatched!.id].sort());
      expect(await h.queue.listAttempts({ endpointId: endpoint.id, before: null, limit: 10 })).toEqual([]);
      expect(await h.history.purge(everything(), 100)).toEqual({ events: 0, deliveries: 0, attempts: 0 });
      // What was kept still works: the retry is claimed when due, the last event is dispatched.
      expect(await claim(later(60_000), later(90_000), 10)).toEqual([{ ...retried, attempts: 1 }]);
      expect(await dispatch(t0, 10)).toBe(1);
    });

    it('keeps everything recorded at or after the cutoff', async () => {
      const { endpoint } = await historyOfThree();
      expect(await h.history.purge(t0, 100)).toEqual({ events: 0, deliveries: 0, attempts: 0 });
      expect(await h.events.listEvents({ before: null, limit: 10 })).toHaveLength(3);
      expect(await h.queue.listAttempts({ endpointId: endpoint.id, before: null, limit: 10 })).toHaveLength(3);
    });

    it('deletes at most a batch of each kind per call, each row once however many purge at the same time', async () => {
      const endpoint = anEndpoint();
      await h.endpoints.create(endpoint);
      for (let i = 0; i < 12; i++) await h.pets.create(aPetDraft(), eventsOfCreate());
      await dispatch(t0, 20);
      for (const delivery of await claim(t0, later(30_000), 20)) await h.queue.record(delivered(delivery), { state: 'succeeded' });
      expect(await h.history.purge(everything(), 2)).toEqual({ events: 2, deliveries: 2, attempts: 2 });
      const together = await Promise.all(Array.from({ length: 4 }, () => h.history.purge(everything(), 2)));
      for (const purged of together) expect(Math.max(purged.events, purged.deliveries, purged.attempts)).toBeLessThanOrEqual(2);
      expect(sum([...together, await h.history.purge(everything(), 100)])).toEqual({ events: 10, deliveries: 10, attempts: 10 });
      expect(await h.events.listEvents({ before: null, limit: 20 })).toEqual([]);
    });
  });
}
