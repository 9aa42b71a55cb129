import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';
import { DEFAULT_RETRY_DELAYS_MS, nextAttemptAt } from '../webhooks/RetrySchedule.js';

describe('DeliverWebhooks', () => {
  let ports: InMemoryPorts;
  let store: PetStore;
  const url = 'https://hooks.example.com/in';
  const delays = [1_000, 10_000];

  beforeEach(() => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    store = createPetStore(ports, { delivery: { retryDelaysMs: delays, random: () => 0.5 } });
  });

  const attemptsTo = async (endpointId: string) => (await store.listWebhookDeliveries.execute(endpointId, {})).attempts;

  it('sends each event to each subscribed, enabled endpoint once, signed with its secret, with the event id', async () => {
    const { endpoint, secret } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    const other = await store.createWebhookEndpoint.execute({ url: `${url}/updates`, eventTypes: ['pet.updated'] }, 'cli');
    const rex = await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    const round = await store.deliverWebhooks.execute();
    expect(round.dispatched).toBe(1);
    const [event] = (await store.listEvents.execute({})).events;
    expect(ports.webhookSender.requests).toEqual([
      {
        url,
        eventId: event!.id,
        sentAt: new Date('2026-06-01T12:00:00Z'),
        body: JSON.stringify({ type: 'pet.created', timestamp: event!.timestamp, data: rex }),
        secrets: [secret],
        timeoutMs: 10_000,
      },
    ]);
    expect(await attemptsTo(endpoint.id)).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: 200, succeeded: true, error: null, eventId: event!.id }),
    ]);
    expect(await attemptsTo(other.endpoint.id)).toEqual([]);
    expect(await store.deliverWebhooks.execute()).toEqual({ dispatched: 0, attempts: [], more: false });
  });

  it('says more work may be waiting when a batch was full, and not once it was not', async () => {
    const small = createPetStore(ports, { delivery: { batchSize: 2 } });
    await small.createWebhookEndpoint.execute({ url }, 'cli');
    for (const name of ['Rex', 'Tom', 'Kit']) await small.createPet.execute({ name, categoryId: 1 });
    expect(await small.deliverWebhooks.execute()).toMatchObject({ dispatched: 2, more: true });
    expect(await small.deliverWebhooks.execute()).toMatchObject({ dispatched: 1, more: false });
  });

  it('tries a failing receiver again on the schedule, with the same event id, until it answers 2xx', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    ports.webhookSender.answer = () => ({ statusCode: 503, body: 'down', error: null });
    await store.deliverWebhooks.execute();
    expect((await store.deliverWebhooks.execute()).attempts).toEqual([]);
    ports.clock.advance(999);
    expect((await store.deliverWebhooks.execute()).attempts).toEqual([]);
    ports.clock.advance(1);
    ports.webhookSender.answer = () => ({ statusCode: null, body: null, error: 'no answer in 10 s' });
    expect((await store.deliverWebhooks.execute()).attempts).toHaveLength(1);
    ports.clock.advance(10_000);
    ports.webhookSender.answer = () => ({ statusCode: 204, body: '', error: null });
    await store.deliverWebhooks.execute();
    const ids = new Set(ports.webhookSender.requests.map((r) => r.eventId));
    expect(ids.size).toBe(1);
    expect((await attemptsTo(endpoint.id)).map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
      [3, 204, null],
      [2, null, 'no answer in 10 s'],
      [1, 503, 'the receiver answered 503'],
    ]);
    expect((await store.getWebhookEndpoint.execute(endpoint.id)).disabled).toBe(false);
    expect(await ports.deliveries.backlog()).toEqual({ pending: 0, undispatched: 0, oldestDueAt: null });
  });

  it('disables an endpoint that answers 410 Gone at once, audited, and sends it nothing more', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    ports.webhookSender.answer = () => ({ statusCode: 410, body: 'gone', error: null });
    await store.deliverWebhooks.execute();
    expect(await store.getWebhookEndpoint.execute(endpoint.id)).toMatchObject({ disabled: true, disabledReason: 'gone' });
    expect((await store.listAuditEvents.execute({})).events[0]).toMatchObject({
      action: 'webhook.disabled',
      actor: 'system',
      endpointId: endpoint.id,
    });
    await store.createPet.execute({ name: 'Max', categoryId: 1 });
    ports.clock.advance(60_000);
    await store.deliverWebhooks.execute();
    expect(ports.webhookSender.requests).toHaveLength(1);
  });

  it('disables an endpoint that failed for the whole schedule, audited', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    ports.webhookSender.answer = () => ({ statusCode: 500, body: 'x'.repeat(5000), error: null });
    for (let i = 0; i < 5; i++) {
      await store.deliverWebhooks.execute();
      ports.clock.advance(10_000);
    }
    const attempts = await attemptsTo(endpoint.id);
    expect(attempts).toHaveLength(delays.length + 1);
    expect(attempts[0]!.responseBody).toHaveLength(1024);
    expect(await store.getWebhookEndpoint.execute(endpoint.id)).toMatchObject({ disabled: true, disabledReason: 'failing' });
    expect((await store.listAuditEvents.execute({})).events[0]).toMatchObject({
      action: 'webhook.disabled',
      changes: { disabledReason: { before: null, after: 'failing' } },
    });
  });

  it('signs with both secrets during a rotation grace period, then with the new one only', async () => {
    const { endpoint, secret: old } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    const { secret: current } = await store.rotateWebhookSecret.execute(endpoint.id, 'cli');
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    await store.deliverWebhooks.execute();
    ports.clock.advance(24 * 3600_000);
    await store.createPet.execute({ name: 'Max', categoryId: 1 });
    await store.deliverWebhooks.execute();
    expect(ports.webhookSender.requests.map((r) => r.secrets)).toEqual([[current, old], [current]]);
  });

  it('resends one event to one endpoint with the same id; refuses unknown events and disabled endpoints', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    await store.deliverWebhooks.execute();
    const [event] = (await store.listEvents.execute({})).events;
    await store.resendWebhookEvent.execute(endpoint.id, event!.id);
    await store.deliverWebhooks.execute();
    expect(ports.webhookSender.requests.map((r) => r.eventId)).toEqual([event!.id, event!.id]);
    await expect(store.resendWebhookEvent.execute(endpoint.id, 'evt_0000000000000000000000000000')).rejects.toMatchObject({ code: 'not_found' });
    await store.updateWebhookEndpoint.execute(endpoint.id, { disabled: true }, 'cli');
    await expect(store.resendWebhookEvent.execute(endpoint.id, event!.id)).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('drops the pending deliveries of a deleted endpoint', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    ports.webhookSender.answer = () => ({ statusCode: 500, body: '', error: null });
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    await store.deliverWebhooks.execute();
    await store.deleteWebhookEndpoint.execute(endpoint.id, 'cli');
    ports.clock.advance(60_000);
    await store.deliverWebhooks.execute();
    expect(ports.webhookSender.requests).toHaveLength(1);
  });
});

describe('the retry schedule', () => {
  it('spans about three days, spread by up to ±10 %', () => {
    const total = DEFAULT_RETRY_DELAYS_MS.reduce((sum, d) => sum + d, 0);
    expect(total / 3_600_000).toBeGreaterThan(70);
    expect(total / 3_600_000).toBeLessThan(80);
    const now = new Date(0);
    expect(nextAttemptAt(now, 1, DEFAULT_RETRY_DELAYS_MS, () => 0)!.getTime()).toBe(4_500);
    expect(nextAttemptAt(now, 1, DEFAULT_RETRY_DELAYS_MS, () => 0.999999)!.getTime()).toBe(5_500);
    expect(nextAttemptAt(now, DEFAULT_RETRY_DELAYS_MS.length + 1, DEFAULT_RETRY_DELAYS_MS, () => 0)).toBeNull();
  });
});
