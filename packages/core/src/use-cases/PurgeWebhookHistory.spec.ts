import { describe, expect, it } from '@jest/globals';
import { createPetStore } from '../createPetStore.js';
import { inMemoryPorts } from '../testing/inMemoryPorts.js';
import { PurgeWebhookHistory } from './PurgeWebhookHistory.js';

describe('PurgeWebhookHistory', () => {
  const HOUR = 3_600_000;

  it('deletes, a batch at a time, what is older than the retention by the clock, and says when a batch was full', async () => {
    const ports = inMemoryPorts('2026-06-01T12:00:00Z');
    const store = createPetStore(ports, { eventRetentionMs: HOUR });
    await store.createWebhookEndpoint.execute({ url: 'https://hooks.example.com/in' }, 'cli');
    for (let i = 0; i < 3; i++) await store.createPet.execute({ name: `pet ${i}`, categoryId: 1 });
    // Rounds until every delivery is made (a new endpoint's share starts at one attempt at a time).
    for (let round = await store.deliverWebhooks.execute(); round.started.length > 0; round = await store.deliverWebhooks.execute()) {
      await Promise.all(round.started);
    }
    ports.clock.advance(HOUR);
    // Exactly the retention old: kept.
    expect(await store.purgeWebhookHistory.execute()).toEqual({ events: 0, deliveries: 0, attempts: 0, more: false });
    ports.clock.advance(HOUR);
    const inBatches = new PurgeWebhookHistory(ports.webhookHistory, ports.clock, HOUR, 2);
    expect(await inBatches.execute()).toEqual({ events: 2, deliveries: 2, attempts: 2, more: true });
    expect(await inBatches.execute()).toEqual({ events: 1, deliveries: 1, attempts: 1, more: false });
    expect((await store.listEvents.execute({})).events).toEqual([]);
  });

  it('ends a listing at the oldest event kept: a cursor past it answers an empty last page', async () => {
    const ports = inMemoryPorts('2026-06-01T12:00:00Z');
    const store = createPetStore(ports, { eventRetentionMs: HOUR });
    for (let i = 0; i < 3; i++) {
      await store.createPet.execute({ name: `pet ${i}`, categoryId: 1 });
      ports.clock.advance(HOUR);
    }
    await store.deliverWebhooks.execute(); // dispatched: to no endpoint
    const first = await store.listEvents.execute({ limit: 1 });
    expect(await store.purgeWebhookHistory.execute()).toMatchObject({ events: 2 });
    expect(await store.listEvents.execute({ limit: 1, cursor: first.nextCursor })).toEqual({ events: [], nextCursor: null });
  });

  it('keeps everything when the store has no history, and refuses a retention that is not a positive number of ms', async () => {
    const { webhookHistory: _, ...ports } = inMemoryPorts();
    const store = createPetStore(ports);
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    ports.clock.advance(400 * 86_400_000);
    expect(await store.purgeWebhookHistory.execute()).toEqual({ events: 0, deliveries: 0, attempts: 0, more: false });
    expect((await store.listEvents.execute({})).events).toHaveLength(1);
    for (const retention of [0, -1, 1.5, Number.NaN])
      expect(() => new PurgeWebhookHistory(ports.deliveries, ports.clock, retention)).toThrow(RangeError);
  });
});
