import { beforeEach, describe, expect, it } from '@jest/globals';
import { createPetStore, type PetStore } from '../createPetStore.js';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';

describe('ListEvents', () => {
  let ports: InMemoryPorts;
  let store: PetStore;

  beforeEach(() => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    store = createPetStore(ports);
  });

  it('lists the events of creates and changes newest first, with the payload a webhook carries', async () => {
    const rex = await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    ports.clock.advance(1000);
    const sold = await store.updatePet.execute({ petId: rex.id, patch: { status: 'sold' } });
    const { events, nextCursor } = await store.listEvents.execute({});
    expect(nextCursor).toBeNull();
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        type: 'pet.updated',
        timestamp: '2026-06-01T12:00:01.000Z',
        data: { ...sold, previous: { status: 'available' } },
      },
      { id: expect.stringMatching(/^evt_/), type: 'pet.created', timestamp: '2026-06-01T12:00:00.000Z', data: rex },
    ]);
  });

  it('pages with a cursor and refuses a bad one', async () => {
    for (let i = 0; i < 3; i++) {
      await store.createPet.execute({ name: `pet ${i}`, categoryId: 1 });
      ports.clock.advance(1);
    }
    const first = await store.listEvents.execute({ limit: 2 });
    expect(first.events.map((e) => e.data.name)).toEqual(['pet 2', 'pet 1']);
    expect((await store.listEvents.execute({ limit: 2, cursor: first.nextCursor })).events.map((e) => e.data.name)).toEqual(['pet 0']);
    await expect(store.listEvents.execute({ cursor: 'x' })).rejects.toMatchObject({ code: 'validation_error' });
    await expect(store.listEvents.execute({ type: 'pet.created' })).rejects.toMatchObject({ code: 'validation_error' });
  });
});
