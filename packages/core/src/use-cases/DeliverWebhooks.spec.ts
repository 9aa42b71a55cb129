import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';
import { answers } from '../testing/RecordingWebhookSender.js';
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

  /** Lets the attempts that can end, end. */
  const settle = async () => {
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  /** One round, with its attempts once recorded. */
  const deliver = async (petStore = store) => {
    const { started, ...round } = await petStore.deliverWebhooks.execute();
    return { ...round, attempts: await Promise.all(started) };
  };
  const attemptsTo = async (endpointId: string) => (await store.listWebhookDeliveries.execute(endpointId, {})).attempts;

  it('sends each event to each subscribed, enabled endpoint once, signed with its secret, with the event id', async () => {
    const { endpoint, secret } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    const other = await store.createWebhookEndpoint.execute({ url: `${url}/updates`, eventTypes: ['pet.updated'] }, 'cli');
    const rex = await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    const round = await deliver();
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
    expect(await deliver()).toEqual({ dispatched: 0, attempts: [], more: false });
  });

  it('says more work may be waiting when a batch was full, and not once it was not', async () => {
    const small = createPetStore(ports, { delivery: { batchSize: 2 } });
    await small.createWebhookEndpoint.execute({ url }, 'cli');
    for (const name of ['Rex', 'Tom', 'Kit']) await small.createPet.execute({ name, categoryId: 1 });
    expect(await deliver(small)).toMatchObject({ dispatched: 2, more: true });
    expect(await deliver(small)).toMatchObject({ dispatched: 1, more: false });
  });

  it('tries a failing receiver again on the schedule, with the same event id, until it answers 2xx', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    ports.webhookSender.answer = () => answers.retry(503, 'down');
    await deliver();
    expect((await deliver()).attempts).toEqual([]);
    ports.clock.advance(999);
    expect((await deliver()).attempts).toEqual([]);
    ports.clock.advance(1);
    ports.webhookSender.answer = () => ({ result: 'retry', statusCode: null, body: null, error: 'no answer in 10 s' });
    expect((await deliver()).attempts).toHaveLength(1);
    ports.clock.advance(10_000);
    ports.webhookSender.answer = () => answers.delivered(204);
    await deliver();
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
    ports.webhookSender.answer = () => answers.refused(410, 'gone');
    await deliver();
    expect(await store.getWebhookEndpoint.execute(endpoint.id)).toMatchObject({ disabled: true, disabledReason: 'gone' });
    expect((await store.listAuditEvents.execute({})).events[0]).toMatchObject({
      action: 'webhook.disabled',
      actor: 'system',
      endpointId: endpoint.id,
    });
    await store.createPet.execute({ name: 'Max', categoryId: 1 });
    ports.clock.advance(60_000);
    await deliver();
    expect(ports.webhookSender.requests).toHaveLength(1);
  });

  it('disables an endpoint that failed for the whole schedule, audited', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    await store.createPet.execute({ name: 'Max', categoryId: 1 });
    ports.webhookSender.answer = () => answers.retry(500, 'x'.repeat(5000));
    for (let i = 0; i < 5; i++) {
      await deliver();
      ports.clock.advance(10_000);
    }
    const attempts = await attemptsTo(endpoint.id);
    // One attempt at a time while it fails, the second event a probe once the endpoint was held: the first
    // delivery's three attempts, the second's first.
    expect(attempts.map((a) => [a.deliveryId, a.attempt])).toEqual([
      [1, 3],
      [2, 1],
      [1, 2],
      [1, 1],
    ]);
    expect(attempts[0]!.responseBody).toHaveLength(1024);
    expect(await store.getWebhookEndpoint.execute(endpoint.id)).toMatchObject({ disabled: true, disabledReason: 'failing' });
    // The deliveries still pending when it was disabled are not attempted any more.
    expect(await ports.deliveries.backlog()).toMatchObject({ pending: 0 });
    expect((await store.listAuditEvents.execute({})).events[0]).toMatchObject({
      action: 'webhook.disabled',
      changes: { disabledReason: { before: null, after: 'failing' } },
    });
  });

  it('signs with both secrets during a rotation grace period, then with the new one only', async () => {
    const { endpoint, secret: old } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    const { secret: current } = await store.rotateWebhookSecret.execute(endpoint.id, 'cli');
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    await deliver();
    ports.clock.advance(24 * 3600_000);
    await store.createPet.execute({ name: 'Max', categoryId: 1 });
    await deliver();
    expect(ports.webhookSender.requests.map((r) => r.secrets)).toEqual([[current, old], [current]]);
  });

  it('resends one event to one endpoint with the same id; refuses unknown events and disabled endpoints', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    await deliver();
    const [event] = (await store.listEvents.execute({})).events;
    await store.resendWebhookEvent.execute(endpoint.id, event!.id);
    await deliver();
    expect(ports.webhookSender.requests.map((r) => r.eventId)).toEqual([event!.id, event!.id]);
    await expect(store.resendWebhookEvent.execute(endpoint.id, 'evt_0000000000000000000000000000')).rejects.toMatchObject({ code: 'not_found' });
    await store.updateWebhookEndpoint.execute(endpoint.id, { disabled: true }, 'cli');
    await expect(store.resendWebhookEvent.execute(endpoint.id, event!.id)).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('drops the pending deliveries of a deleted endpoint', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    ports.webhookSender.answer = () => answers.retry(500);
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    await deliver();
    await store.deleteWebhookEndpoint.execute(endpoint.id, 'cli');
    ports.clock.advance(60_000);
    await deliver();
    expect(ports.webhookSender.requests).toHaveLength(1);
  });
  it('decides on the result the sender gives, not on the status code', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    ports.webhookSender.answer = () => ({ result: 'refused', statusCode: 200, body: '', error: 'refused for good' });
    await deliver();
    expect(await store.getWebhookEndpoint.execute(endpoint.id)).toMatchObject({ disabled: true, disabledReason: 'gone' });
    expect(await attemptsTo(endpoint.id)).toEqual([expect.objectContaining({ statusCode: 200, succeeded: false, error: 'refused for good' })]);
  });

  it('records whatever a receiver answered in a storable form: NUL and lone surrogates replaced', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    ports.webhookSender.answer = () => ({ ...answers.retry(500, `a\u0000b${'c'.repeat(1021)}👍`), error: 'x\uD800' });
    await deliver();
    const [attempt] = await attemptsTo(endpoint.id);
    expect(attempt).toMatchObject({ responseBody: `a\uFFFDb${'c'.repeat(1021)}`, error: 'x\uFFFD' });
  });

  it('does not wait for a slow attempt: the round ends, and other endpoints are served meanwhile', async () => {
    const slow = await store.createWebhookEndpoint.execute({ url: `${url}/slow` }, 'cli');
    const fast = await store.createWebhookEndpoint.execute({ url: `${url}/fast` }, 'cli');
    let answerSlow = () => {};
    ports.webhookSender.answer = (request) =>
      request.url.endsWith('/slow') ? new Promise((resolve) => (answerSlow = () => resolve(answers.delivered(200)))) : answers.delivered(200);
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    const first = await store.deliverWebhooks.execute();
    expect(first.started).toHaveLength(2);
    await settle();
    await store.createPet.execute({ name: 'Max', categoryId: 1 });
    const second = await store.deliverWebhooks.execute();
    // The slow endpoint has its one attempt under way: only the fast one gets the second event now.
    expect(await Promise.all(second.started)).toEqual([expect.objectContaining({ endpointId: fast.endpoint.id, succeeded: true })]);
    expect(await attemptsTo(slow.endpoint.id)).toEqual([]);
    answerSlow();
    ports.webhookSender.answer = () => answers.delivered(200);
    await Promise.all(first.started);
    expect(await attemptsTo(slow.endpoint.id)).toHaveLength(1);
    expect((await deliver()).attempts).toEqual([expect.objectContaining({ endpointId: slow.endpoint.id, succeeded: true })]);
  });

  it('holds an endpoint whose attempts last longer than a second: no deliveries of new events until it answers', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    await deliver();
    await deliver();
    const answering: (() => void)[] = [];
    ports.webhookSender.answer = () => new Promise((resolve) => answering.push(() => resolve(answers.delivered(200))));
    await store.createPet.execute({ name: 'Max', categoryId: 1 });
    const slow = await store.deliverWebhooks.execute();
    expect(slow.started).toHaveLength(1);
    ports.clock.advance(1_000);
    await store.deliverWebhooks.execute();
    for (const name of ['Kit', 'Tom']) await store.createPet.execute({ name, categoryId: 1 });
    expect((await store.deliverWebhooks.execute()).started).toEqual([]);
    expect(await ports.deliveries.backlog()).toMatchObject({ pending: 1 });
    answering.splice(0).forEach((answer) => answer());
    ports.webhookSender.answer = () => answers.delivered(200);
    await Promise.all(slow.started);
    expect((await deliver()).attempts).toHaveLength(2);
    const names = ports.webhookSender.requests.map((r) => (JSON.parse(r.body) as { data: { name: string } }).data.name);
    expect(names).toEqual(['Rex', 'Max', 'Kit', 'Tom']);
    expect(await attemptsTo(endpoint.id)).toHaveLength(4);
  });

  it('serves a healthy endpoint first whatever the number of failing ones, and pauses those that fail', async () => {
    const many = createPetStore(ports, { delivery: { retryDelaysMs: [100_000], random: () => 0.5 } });
    for (let i = 0; i < 500; i++) await many.createWebhookEndpoint.execute({ url: `${url}/dead/${i}` }, 'cli');
    const healthy = await many.createWebhookEndpoint.execute({ url: `${url}/healthy` }, 'cli');
    const hung: (() => void)[] = [];
    ports.webhookSender.answer = (request) =>
      request.url.endsWith('/healthy')
        ? answers.delivered(204)
        : new Promise((resolve) => hung.push(() => resolve({ result: 'retry', statusCode: null, body: null, error: 'no answer in 10000 ms' })));
    await many.createPet.execute({ name: 'Rex', categoryId: 1 });
    const rounds = [];
    // One round starts every endpoint's first attempt, the healthy one's included.
    rounds.push(await many.deliverWebhooks.execute());
    await settle();
    expect(hung).toHaveLength(500);
    expect(await attemptsTo(healthy.endpoint.id)).toHaveLength(1);
    // Every dead endpoint has its one attempt under way: the next change goes to the healthy one in the next round.
    await many.createPet.execute({ name: 'Max', categoryId: 1 });
    expect(await Promise.all((await many.deliverWebhooks.execute()).started)).toEqual([
      expect.objectContaining({ endpointId: healthy.endpoint.id, succeeded: true }),
    ]);
    ports.clock.advance(10_000);
    hung.splice(0).forEach((fail) => fail());
    await Promise.all(rounds.flatMap((round) => round.started));
    // Paused for a second after their failure: none of their deliveries is attempted meanwhile.
    await many.createPet.execute({ name: 'Kit', categoryId: 1 });
    expect(await Promise.all((await many.deliverWebhooks.execute()).started)).toEqual([
      expect.objectContaining({ endpointId: healthy.endpoint.id, succeeded: true }),
    ]);
    expect(hung).toHaveLength(0);
    // Held while they fail: the changes of their pause make no deliveries for them, only for the healthy one.
    for (let i = 0; i < 10; i++) await many.createPet.execute({ name: `Pet ${i}`, categoryId: 1 });
    for (let round = 0; round < 4; round++) await deliver(many);
    expect(await attemptsTo(healthy.endpoint.id)).toHaveLength(13);
    expect(await ports.deliveries.backlog()).toMatchObject({ pending: 500 });
    ports.clock.advance(1_000);
    await many.deliverWebhooks.execute();
    await settle();
    expect(hung).toHaveLength(500);
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
