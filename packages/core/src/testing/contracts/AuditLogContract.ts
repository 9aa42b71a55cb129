import { beforeEach, describe, expect, it } from '@jest/globals';
import type { AuditEvent } from '../../access/AuditEvent.js';
import type { AuditLog } from '../../ports/AuditLog.js';
import { anAuditEvent } from '../builders.js';
import { openHarness, type Closable } from './harness.js';

export type AuditLogHarness = { log: AuditLog } & Closable;

const position = (event: AuditEvent) => ({ at: event.at, id: event.id });

/** Runs the behaviour every AuditLog must have against `open()`, which returns an empty log. */
export function describeAuditLogContract(name: string, open: () => Promise<AuditLogHarness>): void {
  describe(`${name} satisfies the AuditLog contract`, () => {
    const harness = openHarness(open, 'each');
    let log: AuditLog;
    beforeEach(() => {
      log = harness().log;
    });

    it('keeps every field of an event: changes of every value type included', async () => {
      const event = anAuditEvent({
        at: new Date('2026-06-01T12:34:56.789Z'),
        actor: 'admin-api',
        action: 'key.created',
        keyId: 'key_00000000000000aa',
        changes: {
          name: { before: null, after: 'Shelter "North" ✓' },
          perDay: { before: null, after: 20_000 },
          disabled: { before: true, after: false },
          scopes: { before: ['pets:read', 'pets:write'], after: ['pets:read'] },
          expiresAt: { before: null, after: '2027-01-01T00:00:00.000Z' },
        },
      });
      await log.append(event);
      expect(await log.list({ keyId: null, before: null, limit: 10 })).toEqual([event]);
    });

    it('keeps an event without changes', async () => {
      const event = anAuditEvent({ action: 'key.revoked', changes: {} });
      await log.append(event);
      expect(await log.list({ keyId: null, before: null, limit: 10 })).toEqual([event]);
    });

    it('lists newest first, by time then id, a page at a time before a position', async () => {
      const early = anAuditEvent({ at: new Date('2026-06-01T12:00:00Z') });
      const sameA = anAuditEvent({ at: new Date('2026-06-01T12:00:01Z'), id: 'evt_aaaa' });
      const sameB = anAuditEvent({ at: new Date('2026-06-01T12:00:01Z'), id: 'evt_bbbb' });
      const late = anAuditEvent({ at: new Date('2026-06-01T12:00:02Z') });
      for (const event of [sameB, late, early, sameA]) await log.append(event);
      expect(await log.list({ keyId: null, before: null, limit: 10 })).toEqual([late, sameB, sameA, early]);
      expect(await log.list({ keyId: null, before: null, limit: 2 })).toEqual([late, sameB]);
      expect(await log.list({ keyId: null, before: position(sameB), limit: 2 })).toEqual([sameA, early]);
      expect(await log.list({ keyId: null, before: position(early), limit: 2 })).toEqual([]);
    });

    it("lists one key's events when asked", async () => {
      const mine = [
        anAuditEvent({ keyId: 'key_000000000000000a' }),
        anAuditEvent({ keyId: 'key_000000000000000a', at: new Date('2026-06-02T00:00:00Z') }),
      ];
      await log.append(anAuditEvent({ keyId: 'key_000000000000000b' }));
      for (const event of mine) await log.append(event);
      expect(await log.list({ keyId: 'key_000000000000000a', before: null, limit: 10 })).toEqual([mine[1], mine[0]]);
      expect(await log.list({ keyId: 'key_000000000000000a', before: position(mine[1]!), limit: 10 })).toEqual([mine[0]]);
      expect(await log.list({ keyId: 'key_unknown', before: null, limit: 10 })).toEqual([]);
    });

    it('keeps the events of actions on webhook endpoints, with the endpoint id', async () => {
      const { keyId: _, ...common } = anAuditEvent();
      const endpointEvent: AuditEvent = { ...common, action: 'webhook.created', endpointId: 'we_0123456789abcdef' };
      await log.append(endpointEvent);
      expect(await log.list({ keyId: null, before: null, limit: 10 })).toEqual([endpointEvent]);
    });

    it("keeps the events of actions on animals, with the animal's id as a number", async () => {
      const { keyId: _, ...common } = anAuditEvent();
      const petEvent: AuditEvent = {
        ...common,
        action: 'pet.updated',
        petId: 9_007_199_254,
        changes: { status: { before: 'available', after: 'sold' } },
      };
      await log.append(petEvent);
      expect(await log.list({ keyId: null, before: null, limit: 10 })).toEqual([petEvent]);
      expect(await log.list({ keyId: 'key_000000000000000a', before: null, limit: 10 })).toEqual([]);
    });

    it('refuses a second event with the same id, keeping the first', async () => {
      const event = anAuditEvent();
      await log.append(event);
      await expect(log.append({ ...event, action: 'key.revoked' })).rejects.toBeDefined();
      expect(await log.list({ keyId: null, before: null, limit: 10 })).toEqual([event]);
    });
  });
}
