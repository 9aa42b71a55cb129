import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { answers } from '@petstore/core/testing';
import { startTestApiWithKey, type TestApi } from '../testing/startTestApi.js';

type Json = Record<string, unknown>;
const URL_ = 'https://crm.example.org/hooks';

describe('webhooks in the admin API', () => {
  let api: TestApi;
  let key: string;

  beforeEach(async () => {
    ({ api, key } = await startTestApiWithKey({ now: '2026-06-01T12:00:00Z' }));
  });
  afterEach(() => api.close());

  const create = async (body: Json = { url: URL_ }) => {
    const response = await api.admin('POST', '/admin/v1/webhook-endpoints', { body });
    expect(response.status).toBe(201);
    return response.json as Json & { id: string; secret: string };
  };
  const trail = async () => ((await api.admin('GET', '/admin/v1/audit-events')).json as { events: Json[] }).events;
  /** Rounds until one starts nothing, each attempt recorded. */
  const deliverAll = async () => {
    for (;;) {
      const { started } = await api.store.deliverWebhooks.execute();
      if (started.length === 0) return;
      await Promise.all(started);
    }
  };

  it('creates an endpoint, answering its secret once, with Location; lists and gets it without the secret', async () => {
    const response = await api.admin('POST', '/admin/v1/webhook-endpoints', { body: { url: URL_, description: 'CRM' } });
    expect(response.status).toBe(201);
    const created = response.json as Json & { id: string; secret: string };
    expect(created).toMatchObject({ url: URL_, eventTypes: ['pet.created', 'pet.updated'], description: 'CRM', disabled: false });
    expect(created.secret).toMatch(/^whsec_/);
    expect(response.headers['location']).toMatch(new RegExp(`/admin/v1/webhook-endpoints/${created.id}$`));
    const { secret, ...view } = created;
    expect((await api.admin('GET', `/admin/v1/webhook-endpoints/${created.id}`)).json).toEqual(view);
    const listed = await api.admin('GET', '/admin/v1/webhook-endpoints');
    expect(listed.json).toEqual({ endpoints: [view], nextCursor: null });
    for (const text of [listed.text, JSON.stringify(await trail())]) expect(text).not.toContain(secret);
    expect((await trail())[0]).toMatchObject({ action: 'webhook.created', actor: 'admin-api', endpointId: created.id });
  });

  it.each([
    [{}, 'url'],
    [{ url: 'http://crm.example.org/hooks' }, 'url'],
    [{ url: URL_, eventTypes: ['pet.adopted'] }, 'eventTypes'],
    [{ url: URL_, extra: true }, 'extra'],
  ])('refuses %j with 400 naming %s, storing nothing', async (body, field) => {
    api.webhookTargets.refuse('http://crm.example.org/hooks', 'url must be https');
    const response = await api.admin('POST', '/admin/v1/webhook-endpoints', { body });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      code: 'validation_error',
      status: 400,
      details: expect.arrayContaining([expect.objectContaining({ field })]),
    });
    expect(((await api.admin('GET', '/admin/v1/webhook-endpoints')).json as { endpoints: unknown[] }).endpoints).toEqual([]);
  });

  it('updates, rotates and deletes an endpoint, each audited; unknown ids are 404', async () => {
    const { id, secret } = await create();
    const updated = await api.admin('PATCH', `/admin/v1/webhook-endpoints/${id}`, { body: { eventTypes: ['pet.updated'], disabled: true } });
    expect(updated.json).toMatchObject({ eventTypes: ['pet.updated'], disabled: true, disabledReason: 'manual' });
    const rotated = await api.admin('POST', `/admin/v1/webhook-endpoints/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.json).toMatchObject({ id, previousSecretExpiresAt: '2026-06-02T12:00:00.000Z', secret: expect.stringMatching(/^whsec_/) });
    expect((rotated.json as Json)['secret']).not.toBe(secret);
    const deleted = await api.admin('DELETE', `/admin/v1/webhook-endpoints/${id}`);
    expect(deleted.status).toBe(204);
    expect((await api.admin('GET', `/admin/v1/webhook-endpoints/${id}`)).json).toMatchObject({ code: 'not_found', status: 404 });
    expect((await api.admin('DELETE', `/admin/v1/webhook-endpoints/${id}`)).status).toBe(404);
    expect((await trail()).map((e) => e['action']).filter((a) => String(a).startsWith('webhook.'))).toEqual([
      'webhook.deleted',
      'webhook.secret_rotated',
      'webhook.updated',
      'webhook.created',
    ]);
    expect(JSON.stringify(await trail())).not.toContain((rotated.json as Json)['secret']);
  });

  it('lists the events of changes newest first, delivers them, shows the delivery log and resends one', async () => {
    const { id } = await create();
    const pet = (await api.authed(key, 'POST', '/v1/pets', { body: { name: 'Rex', categoryId: 1 } })).json as Json;
    await api.authed(key, 'PATCH', `/v1/pets/${String(pet['id'])}`, { body: { status: 'sold' } });
    const events = (await api.admin('GET', '/admin/v1/events')).json as { events: (Json & { id: string })[]; nextCursor: null };
    expect(events.events.map((e) => [e['type'], (e['data'] as Json)['status']])).toEqual([
      ['pet.updated', 'sold'],
      ['pet.created', 'available'],
    ]);
    expect(events.events[0]!['data']).toMatchObject({ previous: { status: 'available' }, version: 2 });
    await deliverAll();
    const log = (await api.admin('GET', `/admin/v1/webhook-endpoints/${id}/deliveries`)).json as { attempts: Json[] };
    expect(log.attempts).toHaveLength(2);
    expect(log.attempts.every((a) => a['succeeded'] === true && a['statusCode'] === 200)).toBe(true);
    const resent = await api.admin('POST', `/admin/v1/webhook-endpoints/${id}/resend`, { body: { eventId: events.events[1]!.id } });
    expect(resent.status).toBe(202);
    expect(resent.json).toMatchObject({ eventId: events.events[1]!.id, endpointId: id });
    await deliverAll();
    expect(api.webhookSender.requests.filter((r) => r.eventId === events.events[1]!.id)).toHaveLength(2);
    const unknown = await api.admin('POST', `/admin/v1/webhook-endpoints/${id}/resend`, { body: { eventId: 'evt_0000000000000000000000000000' } });
    expect(unknown.json).toMatchObject({ code: 'not_found', status: 404 });
    expect((await api.admin('POST', `/admin/v1/webhook-endpoints/${id}/resend`, { body: {} })).json).toMatchObject({ code: 'validation_error' });
  });

  it("shows a failed attempt's retry as the delivery's next attempt until it is made", async () => {
    const attempts = async () => ((await api.admin('GET', `/admin/v1/webhook-endpoints/${id}/deliveries`)).json as { attempts: Json[] }).attempts;
    const { id } = await create();
    api.webhookSender.answer = () => answers.retry(503, 'busy');
    await api.authed(key, 'POST', '/v1/pets', { body: { name: 'Rex', categoryId: 1 } });
    await deliverAll();
    const [failed] = await attempts();
    // The first retry comes 5 s after, give or take 10 %.
    const retryAt = Date.parse(String(failed!['nextAttemptAt']));
    expect(failed).toMatchObject({ attempt: 1, statusCode: 503, succeeded: false });
    expect(retryAt - api.clock.now().getTime()).toBeGreaterThanOrEqual(4500);
    expect(retryAt - api.clock.now().getTime()).toBeLessThanOrEqual(5500);

    api.webhookSender.answer = () => answers.delivered();
    api.clock.advance(6000);
    await deliverAll();
    expect((await attempts()).map((a) => [a['attempt'], a['statusCode'], a['nextAttemptAt']])).toEqual([
      [2, 200, null],
      [1, 503, null],
    ]);
  });

  it('queues one resend of an event to an endpoint at a time: of 300 at once, one is sent, the others are 409', async () => {
    const { id } = await create();
    await api.authed(key, 'POST', '/v1/pets', { body: { name: 'Rex', categoryId: 1 } });
    const [event] = ((await api.admin('GET', '/admin/v1/events?limit=1')).json as { events: { id: string }[] }).events;
    const resend = () => api.admin('POST', `/admin/v1/webhook-endpoints/${id}/resend`, { body: { eventId: event!.id } });
    const answers = await Promise.all(Array.from({ length: 300 }, resend));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 202);
    expect(refused).toHaveLength(299);
    for (const { status, json } of refused) {
      expect({ status, json }).toEqual({ status: 409, json: { code: 'resend_pending', status: 409, message: expect.stringContaining(event!.id) } });
    }
    for (let round = await api.store.deliverWebhooks.execute(); round.started.length > 0; round = await api.store.deliverWebhooks.execute()) {
      await Promise.all(round.started);
    }
    // The first delivery and the one resend.
    expect(api.webhookSender.requests.filter((r) => r.eventId === event!.id)).toHaveLength(2);
    expect((await resend()).status).toBe(202);
  });

  it('pages the events with a cursor', async () => {
    for (let i = 0; i < 3; i++) {
      await api.authed(key, 'POST', '/v1/pets', { body: { name: `pet ${i}`, categoryId: 1 } });
      api.clock.advance(1);
    }
    const first = (await api.admin('GET', '/admin/v1/events?limit=2')).json as { events: Json[]; nextCursor: string };
    expect(first.events).toHaveLength(2);
    const second = (await api.admin('GET', `/admin/v1/events?limit=2&cursor=${first.nextCursor}`)).json as { events: Json[]; nextCursor: null };
    expect(second.events.map((e) => (e['data'] as Json)['name'])).toEqual(['pet 0']);
    expect((await api.admin('GET', '/admin/v1/events?cursor=nope')).status).toBe(400);
  });
});
