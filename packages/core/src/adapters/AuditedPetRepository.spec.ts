import { beforeEach, describe, expect, it } from '@jest/globals';
import { eventsOfCreate, eventsOfUpdate } from '../events/PetEvent.js';
import { aPetDraft } from '../testing/builders.js';
import { FakeClock } from '../testing/FakeClock.js';
import { InMemoryAuditLog } from '../testing/InMemoryAuditLog.js';
import { InMemoryPetRepository } from '../testing/InMemoryPetRepository.js';
import type { PetRepository } from '../ports/PetRepository.js';
import { AuditedPetRepository } from './AuditedPetRepository.js';

describe('AuditedPetRepository', () => {
  let clock: FakeClock;
  let log: InMemoryAuditLog;
  let pets: AuditedPetRepository;
  const trail = () => log.list({ keyId: null, before: null, limit: 10 });

  beforeEach(() => {
    clock = new FakeClock('2026-06-01T12:00:00Z');
    log = new InMemoryAuditLog();
    pets = new AuditedPetRepository(new InMemoryPetRepository(clock), log, 'admin-api', clock);
  });

  it('audits an animal added, with its fields, as made by its actor', async () => {
    const rex = await pets.create(aPetDraft({ name: 'Rex', categoryId: 2 }), eventsOfCreate());
    expect(await trail()).toEqual([
      {
        id: expect.stringMatching(/^evt_/),
        at: clock.now(),
        actor: 'admin-api',
        action: 'pet.created',
        petId: rex.id,
        changes: { name: { before: null, after: 'Rex' }, categoryId: { before: null, after: 2 }, status: { before: null, after: 'available' } },
      },
    ]);
    expect(await pets.findById(rex.id)).toEqual(rex);
    expect((await pets.list({ limit: 10 })).pets).toEqual([rex]);
  });

  it('audits a change with the fields it changed, at the time of the change; a refused change leaves nothing', async () => {
    const rex = await pets.create(aPetDraft(), eventsOfCreate());
    clock.advance(5_000);
    const timing = { at: clock.now().getTime(), requestedAt: clock.now().getTime() };
    const pending = await pets.update(rex.id, rex.version, { ...aPetDraft(), status: 'pending' }, timing, eventsOfUpdate(rex));
    expect(await pets.update(rex.id, rex.version, { ...aPetDraft(), status: 'sold' }, timing, eventsOfUpdate(rex))).toBeNull();
    expect(await pets.update(999, 1, aPetDraft(), timing, eventsOfUpdate(rex))).toBeNull();
    const [changed, ...rest] = await trail();
    expect(rest).toHaveLength(1);
    expect(changed).toMatchObject({
      at: new Date('2026-06-01T12:00:05Z'),
      action: 'pet.updated',
      petId: pending!.id,
      changes: { status: { before: 'available', after: 'pending' } },
    });
  });

  it('takes the fields before an update from its event, without reading the animal again', async () => {
    const memory = new InMemoryPetRepository(clock);
    let reads = 0;
    const counted: PetRepository = Object.assign(Object.create(memory) as PetRepository, {
      findById: (id: number) => (reads++, memory.findById(id)),
    });
    pets = new AuditedPetRepository(counted, log, 'admin-api', clock);
    const rex = await pets.create(aPetDraft({ name: 'Rex', categoryId: 2 }), eventsOfCreate());
    const timing = { at: clock.now().getTime(), requestedAt: clock.now().getTime() };
    await pets.update(rex.id, rex.version, { ...aPetDraft({ name: 'Rex', categoryId: 3 }), status: 'pending' }, timing, eventsOfUpdate(rex));
    expect(reads).toBe(0);
    const [changed] = await trail();
    expect(changed!.changes).toEqual({ categoryId: { before: 2, after: 3 }, status: { before: 'available', after: 'pending' } });
  });

  it('audits an update handed no pet.updated event with every field after and none before', async () => {
    const rex = await pets.create(aPetDraft({ name: 'Rex', categoryId: 2 }), eventsOfCreate());
    const timing = { at: clock.now().getTime(), requestedAt: clock.now().getTime() };
    await pets.update(rex.id, rex.version, { ...aPetDraft({ name: 'Rex', categoryId: 3 }) }, timing, []);
    const [changed] = await trail();
    expect(changed).toMatchObject({
      action: 'pet.updated',
      changes: { name: { before: null, after: 'Rex' }, categoryId: { before: null, after: 3 }, status: { before: null, after: 'available' } },
    });
  });
});
