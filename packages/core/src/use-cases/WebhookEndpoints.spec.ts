import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';

describe('webhook endpoints (create, list, get, update, delete, rotate)', () => {
  let ports: InMemoryPorts;
  let store: PetStore;
  const url = 'https://hooks.example.com/petstore';

  beforeEach(() => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    store = createPetStore(ports);
  });

  const trail = async () => (await store.listAuditEvents.execute({})).events;

  it('creates an endpoint for every event type by default and answers its whsec_ secret once', async () => {
    const { endpoint, secret } = await store.createWebhookEndpoint.execute({ url, description: 'CRM' }, 'admin-api');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(endpoint).toEqual({
      id: expect.stringMatching(/^we_[0-9a-f]{16}$/),
      url,
      eventTypes: ['pet.created', 'pet.updated'],
      description: 'CRM',
      disabled: false,
      disabledReason: null,
      createdAt: '2026-06-01T12:00:00.000Z',
      previousSecretExpiresAt: null,
    });
    expect(await store.getWebhookEndpoint.execute(endpoint.id)).toEqual(endpoint);
    expect((await store.listWebhookEndpoints.execute({})).endpoints).toEqual([endpoint]);
    expect(JSON.stringify(await trail())).not.toContain(secret);
    expect(await trail()).toEqual([expect.objectContaining({ action: 'webhook.created', endpointId: endpoint.id, actor: 'admin-api' })]);
  });

  it.each([
    [{}, 'url'],
    [{ url: 'ftp://example.com/x' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: 'https://user:pw@example.com/' }, 'url'],
    [{ url, eventTypes: [] }, 'eventTypes'],
    [{ url, eventTypes: ['pet.deleted'] }, 'eventTypes'],
    [{ url, eventTypes: ['pet.created', 'pet.created'] }, 'eventTypes'],
    [{ url, description: 'x'.repeat(201) }, 'description'],
    [{ url, description: 'bad\u202Etext' }, 'description'],
    [{ url, secret: 'mine' }, 'secret'],
  ])('refuses %j with a validation error on %s, storing nothing', async (input, field) => {
    await expect(store.createWebhookEndpoint.execute(input, 'admin-api')).rejects.toMatchObject({
      code: 'validation_error',
      details: expect.arrayContaining([expect.objectContaining({ field })]),
    });
    expect((await store.listWebhookEndpoints.execute({})).endpoints).toEqual([]);
  });

  it('refuses a target the WebhookTargets port refuses, when created and when changed', async () => {
    ports.webhookTargets.refuse('https://10.0.0.1/', 'url resolves to a private address');
    await expect(store.createWebhookEndpoint.execute({ url: 'https://10.0.0.1/' }, 'cli')).rejects.toMatchObject({
      code: 'validation_error',
      message: 'url resolves to a private address',
    });
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    await expect(store.updateWebhookEndpoint.execute(endpoint.id, { url: 'https://10.0.0.1/' }, 'cli')).rejects.toMatchObject({
      code: 'validation_error',
    });
    expect((await store.getWebhookEndpoint.execute(endpoint.id)).url).toBe(url);
  });

  it('changes url, event types and disabled, auditing each changed field; enabling clears the reason', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    const changed = await store.updateWebhookEndpoint.execute(endpoint.id, { eventTypes: ['pet.updated'], disabled: true }, 'admin-api');
    expect(changed).toMatchObject({ eventTypes: ['pet.updated'], disabled: true, disabledReason: 'manual' });
    expect((await trail())[0]).toMatchObject({
      action: 'webhook.updated',
      changes: {
        eventTypes: { before: ['pet.created', 'pet.updated'], after: ['pet.updated'] },
        disabled: { before: false, after: true },
        disabledReason: { before: null, after: 'manual' },
      },
    });
    expect(await store.updateWebhookEndpoint.execute(endpoint.id, { disabled: false }, 'cli')).toMatchObject({
      disabled: false,
      disabledReason: null,
    });
    await expect(store.updateWebhookEndpoint.execute(endpoint.id, {}, 'cli')).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('answers concurrent rotations with secrets that all sign: the first stored wins, the others answer its secret', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url: 'https://hooks.example.com/in' }, 'admin-api');
    const rotations = await Promise.all(Array.from({ length: 10 }, () => store.rotateWebhookSecret.execute(endpoint.id, 'admin-api')));
    const stored = await ports.webhookEndpoints.findById(endpoint.id);
    expect(new Set(rotations.map((r) => r.secret))).toEqual(new Set([stored!.secret]));
    expect((await store.listAuditEvents.execute({})).events.filter((e) => e.action === 'webhook.secret_rotated')).toHaveLength(1);
  });

  it("keeps a deleted endpoint's delivery log readable; an id with neither endpoint nor attempts is not found", async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url: 'https://hooks.example.com/in' }, 'admin-api');
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    await Promise.all((await store.deliverWebhooks.execute()).started);
    await store.deleteWebhookEndpoint.execute(endpoint.id, 'admin-api');
    expect((await store.listWebhookDeliveries.execute(endpoint.id)).attempts).toEqual([expect.objectContaining({ succeeded: true })]);
    await expect(store.listWebhookDeliveries.execute('we_0000000000000000')).rejects.toMatchObject({ code: 'not_found' });
    await expect(store.listWebhookDeliveries.execute('nope')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('rotates the secret: the old one signs beside the new one for 24 hours; audited without either', async () => {
    const { endpoint, secret: first } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    const { endpoint: rotated, secret: second } = await store.rotateWebhookSecret.execute(endpoint.id, 'admin-api');
    expect(second).not.toBe(first);
    expect(rotated.previousSecretExpiresAt).toBe('2026-06-02T12:00:00.000Z');
    const stored = await ports.webhookEndpoints.findById(endpoint.id);
    expect(stored).toMatchObject({ secret: second, previousSecret: first });
    const text = JSON.stringify(await trail());
    expect(text).not.toContain(first);
    expect(text).not.toContain(second);
    expect((await trail())[0]).toMatchObject({ action: 'webhook.secret_rotated' });
  });

  it('deletes an endpoint (audited); unknown ids are not found', async () => {
    const { endpoint } = await store.createWebhookEndpoint.execute({ url }, 'cli');
    await store.deleteWebhookEndpoint.execute(endpoint.id, 'admin-api');
    await expect(store.getWebhookEndpoint.execute(endpoint.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(store.deleteWebhookEndpoint.execute(endpoint.id, 'cli')).rejects.toMatchObject({ code: 'not_found' });
    await expect(store.rotateWebhookSecret.execute('we_nope', 'cli')).rejects.toMatchObject({ code: 'not_found' });
    expect((await trail())[0]).toMatchObject({ action: 'webhook.deleted', endpointId: endpoint.id });
  });

  it('lists endpoints oldest first, a page at a time', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await store.createWebhookEndpoint.execute({ url: `${url}/${i}` }, 'cli')).endpoint.id);
      ports.clock.advance(1000);
    }
    const first = await store.listWebhookEndpoints.execute({ limit: '2' });
    expect(first.endpoints.map((e) => e.id)).toEqual(ids.slice(0, 2));
    const second = await store.listWebhookEndpoints.execute({ limit: '2', cursor: first.nextCursor });
    expect(second).toEqual({ endpoints: [expect.objectContaining({ id: ids[2] })], nextCursor: null });
    await expect(store.listWebhookEndpoints.execute({ cursor: 'bogus' })).rejects.toMatchObject({ code: 'validation_error' });
  });
});

describe('concurrent changes to an endpoint', () => {
  it('decides a change again when another came first, so neither is lost', async () => {
    const ports = inMemoryPorts('2026-06-01T12:00:00Z');
    const store = createPetStore(ports);
    const { endpoint } = await store.createWebhookEndpoint.execute({ url: 'https://hooks.example.com/a' }, 'cli');
    const stored = ports.webhookEndpoints;
    const save = stored.save.bind(stored);
    let overtaken = false;
    // The first save of the update finds the endpoint disabled by another change just before it.
    stored.save = async (next) => {
      if (!overtaken) {
        overtaken = true;
        const current = (await stored.findById(endpoint.id))!;
        await save({ ...current, disabled: true, disabledReason: 'gone' });
      }
      return save(next);
    };
    const updated = await store.updateWebhookEndpoint.execute(endpoint.id, { description: 'CRM' }, 'admin-api');
    expect(updated).toMatchObject({ description: 'CRM', disabled: true, disabledReason: 'gone' });
    expect(await stored.findById(endpoint.id)).toMatchObject({ description: 'CRM', disabled: true, version: 3 });
  });
});
