import { describe, expect, it } from '@jest/globals';
import { eventsOfCreate, eventsOfUpdate } from '@petstore/core';
import { aPetDraft } from '@petstore/core/testing';
import type { DataSource } from 'typeorm';
import { dialectOf } from '../dialect.js';
import { TypeOrmEventLog } from '../TypeOrmEventLog.js';
import { TypeOrmPetRepository } from '../TypeOrmPetRepository.js';
import type { OpenedDataSource } from './describeTypeOrmContracts.js';

/** Makes every insert of an event fail, as a full disk or a lost connection could, until the returned function runs. */
async function refuseEvents(dataSource: DataSource): Promise<() => Promise<void>> {
  if (dialectOf(dataSource) === 'postgres') {
    await dataSource.query(
      `CREATE OR REPLACE FUNCTION "refuse_event"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`,
    );
    await dataSource.query('CREATE TRIGGER "refuse_events" BEFORE INSERT ON "pet_events" FOR EACH ROW EXECUTE FUNCTION "refuse_event"()');
    return async () => void (await dataSource.query('DROP TRIGGER "refuse_events" ON "pet_events"'));
  }
  await dataSource.query(`CREATE TRIGGER "refuse_events" BEFORE INSERT ON "pet_events" BEGIN SELECT RAISE(ABORT, 'refused'); END`);
  return async () => void (await dataSource.query('DROP TRIGGER "refuse_events"'));
}

/** A change whose event cannot be written is rolled back whole: no change without its event, no event without its change. */
export function describeOutboxAtomicity(where: string, open: () => Promise<OpenedDataSource>): void {
  describe(`the outbox ${where}`, () => {
    it('rolls a create or an update back with its event when the event cannot be written', async () => {
      const { dataSource, close } = await open();
      try {
        const pets = new TypeOrmPetRepository(dataSource);
        const events = new TypeOrmEventLog(dataSource);
        const rex = await pets.create(aPetDraft({ name: 'Rex' }), eventsOfCreate());
        const recorded = await events.listEvents({ before: null, limit: 10 });
        const allow = await refuseEvents(dataSource);
        try {
          // Compared as text: under Jest, better-sqlite3's errors may belong to another test file's realm, which
          // `rejects.toThrow()` does not take for an error.
          const outcome = (change: Promise<unknown>) =>
            change.then(
              (value) => ({ resolved: value }),
              (error: unknown) => ({ rejected: String(error) }),
            );
          expect({
            create: await outcome(pets.create(aPetDraft({ name: 'lost' }), eventsOfCreate())),
            update: await outcome(
              pets.update(rex.id, 1, aPetDraft({ name: 'renamed' }), { at: Date.now(), requestedAt: Date.now() }, eventsOfUpdate(rex)),
            ),
          }).toEqual({ create: { rejected: expect.stringMatching(/refused/) }, update: { rejected: expect.stringMatching(/refused/) } });
        } finally {
          await allow();
        }
        expect((await pets.list({ limit: 10 })).pets).toEqual([rex]);
        expect(await events.listEvents({ before: null, limit: 10 })).toEqual(recorded);
        const next = await pets.create(aPetDraft({ name: 'next' }), eventsOfCreate());
        expect((await events.listEvents({ before: null, limit: 1 }))[0]).toMatchObject({ type: 'pet.created', pet: next });
      } finally {
        await close?.();
      }
    });
  });
}
