import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import type { BanRule } from '../../access/BanRule.js';
import type { ConsumeResult, CountedWindow, RateLimitStore } from '../../ports/RateLimitStore.js';
import { openHarness, type Closable } from './harness.js';

export type RateLimitStoreHarness = { store: RateLimitStore } & Closable;

const MINUTE = 60_000;
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0); // a whole minute
const BAN: BanRule = { strikes: 10, durationSeconds: 900, strikeIntervalSeconds: 1 };
const SECOND = 1_000;

function windows(now: number, perMinute: number, perDay?: number): CountedWindow[] {
  const minuteStart = Math.floor(now / MINUTE) * MINUTE;
  const dayStart = Math.floor(now / DAY) * DAY;
  const result: CountedWindow[] = [{ name: 'minute', start: minuteStart, resetAt: minuteStart + MINUTE, limit: perMinute }];
  if (perDay !== undefined) result.push({ name: 'day', start: dayStart, resetAt: dayStart + DAY, limit: perDay });
  return result;
}

/**
 * Runs the semantics documented on RateLimitStore against `open()`. Every test uses subjects of its own, so a
 * store shared between tests (one Redis server) needs no flushing.
 */
export function describeRateLimitStoreContract(name: string, open: () => Promise<RateLimitStoreHarness>): void {
  describe(`${name} satisfies the RateLimitStore contract`, () => {
    const harness = openHarness(open, 'all');

    const newSubject = () => `key:${randomUUID()}`;
    const consume = (subject: string, now: number, perMinute: number, perDay?: number, ban = BAN): Promise<ConsumeResult> =>
      harness().store.consume({ subject, now, windows: windows(now, perMinute, perDay), ban });

    it('admits up to the limit, counting in every window, then rejects until the window resets', async () => {
      const subject = newSubject();
      expect(await consume(subject, T0, 3, 100)).toEqual({ outcome: 'admitted', counts: [1, 1] });
      expect(await consume(subject, T0 + 1, 3, 100)).toEqual({ outcome: 'admitted', counts: [2, 2] });
      expect(await consume(subject, T0 + 2, 3, 100)).toEqual({ outcome: 'admitted', counts: [3, 3] });
      expect(await consume(subject, T0 + 3, 3, 100)).toEqual({ outcome: 'rejected', counts: [3, 3], retryAt: T0 + MINUTE });
      expect(await consume(subject, T0 + MINUTE, 3, 100)).toEqual({ outcome: 'admitted', counts: [1, 4] });
    });

    it('does not count a rejected request', async () => {
      const subject = newSubject();
      await consume(subject, T0, 1, 100);
      for (let i = 0; i < 5; i++) expect((await consume(subject, T0 + 10 + i, 1, 100)).outcome).toBe('rejected');
      expect(await consume(subject, T0 + MINUTE + 1, 1, 100)).toEqual({ outcome: 'admitted', counts: [1, 2] });
    });

    it('rejects on the day window across minutes, with retryAt at the next UTC midnight', async () => {
      const subject = newSubject();
      await consume(subject, T0, 10, 2);
      await consume(subject, T0 + MINUTE, 10, 2);
      const nextMidnight = Math.floor(T0 / DAY) * DAY + DAY;
      expect(await consume(subject, T0 + 2 * MINUTE, 10, 2)).toEqual({ outcome: 'rejected', counts: [0, 2], retryAt: nextMidnight });
      expect(await consume(subject, nextMidnight, 10, 2)).toEqual({ outcome: 'admitted', counts: [1, 1] });
    });

    it('names the later reset when several windows are full', async () => {
      const subject = newSubject();
      await consume(subject, T0, 1, 1);
      const nextMidnight = Math.floor(T0 / DAY) * DAY + DAY;
      expect(await consume(subject, T0 + 5, 1, 1)).toEqual({ outcome: 'rejected', counts: [1, 1], retryAt: nextMidnight });
    });

    it('admits exactly the remaining quota under concurrent calls', async () => {
      const subject = newSubject();
      for (let i = 0; i < 10; i++) await consume(subject, T0, 60);
      const noBan: BanRule = { strikes: 1_000, durationSeconds: 1, strikeIntervalSeconds: 0 };
      const results = await Promise.all(Array.from({ length: 100 }, () => consume(subject, T0 + 1, 60, undefined, noBan)));
      expect(results.filter((r) => r.outcome === 'admitted')).toHaveLength(50);
      expect(results.filter((r) => r.outcome === 'rejected')).toHaveLength(50);
    });

    it('keeps subjects apart', async () => {
      const a = newSubject();
      const b = newSubject();
      await consume(a, T0, 1);
      expect((await consume(a, T0, 1)).outcome).toBe('rejected');
      expect((await consume(b, T0, 1)).outcome).toBe('admitted');
    });

    it('bans after `strikes` further requests before Retry-After, spaced by the strike interval, until the ban ends', async () => {
      const subject = newSubject();
      await consume(subject, T0, 1);
      expect((await consume(subject, T0 + 1_000, 1)).outcome).toBe('rejected'); // the rejection itself
      for (let strike = 1; strike < BAN.strikes; strike++) {
        expect((await consume(subject, T0 + 1_000 + strike * SECOND, 1)).outcome).toBe('rejected');
      }
      const banStart = T0 + 1_000 + BAN.strikes * SECOND;
      expect(await consume(subject, banStart, 1)).toEqual({ outcome: 'banned', counts: [1], bannedUntil: banStart + 900_000 });
      // Banned even once the minute window has reset, and nothing is counted meanwhile.
      expect(await consume(subject, T0 + 5 * MINUTE, 1)).toEqual({ outcome: 'banned', counts: [0], bannedUntil: banStart + 900_000 });
      expect(await consume(subject, banStart + 900_000, 1)).toEqual({ outcome: 'admitted', counts: [1] });
    });

    it('never bans for a burst: rejections closer together than the strike interval count once at most', async () => {
      const subject = newSubject();
      const burst = await Promise.all(Array.from({ length: 71 }, () => consume(subject, T0 + 10, 60)));
      expect(burst.filter((r) => r.outcome === 'admitted')).toHaveLength(60);
      expect(burst.filter((r) => r.outcome === 'rejected')).toHaveLength(11);
      // Hundreds more within the interval after the first rejection: still no strike.
      for (let i = 0; i < 300; i++) expect((await consume(subject, T0 + 10 + (i % 999), 60)).outcome).toBe('rejected');
      // A client that keeps going afterwards: one strike per interval, banned at the 10th.
      for (let strike = 1; strike < BAN.strikes; strike++) {
        for (let i = 0; i < 5; i++) expect((await consume(subject, T0 + 10 + strike * SECOND + i, 60)).outcome).toBe('rejected');
      }
      expect((await consume(subject, T0 + 10 + BAN.strikes * SECOND, 60)).outcome).toBe('banned');
    });

    it('starts counting strikes afresh once Retry-After has passed', async () => {
      const subject = newSubject();
      await consume(subject, T0, 1);
      for (let i = 0; i < BAN.strikes; i++) await consume(subject, T0 + 100 + i * SECOND, 1); // 1 rejection + 9 strikes
      // The client waited: a new window, admitted, then rejected again: a new episode, not the 10th strike.
      expect((await consume(subject, T0 + MINUTE, 1)).outcome).toBe('admitted');
      for (let i = 0; i < BAN.strikes; i++) expect((await consume(subject, T0 + MINUTE + 100 + i * SECOND, 1)).outcome).toBe('rejected');
      expect((await consume(subject, T0 + MINUTE + 100 + BAN.strikes * SECOND, 1)).outcome).toBe('banned');
    });

    const read = (subject: string, now: number, perMinute: number, perDay?: number) =>
      harness().store.read({ subject, now, windows: windows(now, perMinute, perDay) });

    it('reads zero counts and no ban for a subject never seen', async () => {
      expect(await read(newSubject(), T0, 3, 100)).toEqual({ counts: [0, 0], bannedUntil: null });
    });

    it('reads the counts of the current windows without counting anything', async () => {
      const subject = newSubject();
      await consume(subject, T0, 3, 100);
      await consume(subject, T0 + 1, 3, 100);
      for (let i = 0; i < 5; i++) expect(await read(subject, T0 + 2 + i, 3, 100)).toEqual({ counts: [2, 2], bannedUntil: null });
      expect(await consume(subject, T0 + 10, 3, 100)).toEqual({ outcome: 'admitted', counts: [3, 3] });
      expect(await read(subject, T0 + MINUTE, 3, 100)).toEqual({ counts: [0, 3], bannedUntil: null });
    });

    it('reads a full window without adding a strike', async () => {
      const subject = newSubject();
      const quick: BanRule = { strikes: 1, durationSeconds: 30, strikeIntervalSeconds: 0 };
      await consume(subject, T0, 1, undefined, quick);
      expect((await consume(subject, T0 + 1, 1, undefined, quick)).outcome).toBe('rejected');
      for (let i = 0; i < 5; i++) expect(await read(subject, T0 + 2 + i, 1)).toEqual({ counts: [1], bannedUntil: null });
      expect((await consume(subject, T0 + 10, 1, undefined, quick)).outcome).toBe('banned');
    });

    it('reads a ban in force, and none once it is over', async () => {
      const subject = newSubject();
      const quick: BanRule = { strikes: 1, durationSeconds: 30, strikeIntervalSeconds: 0 };
      await consume(subject, T0, 1, undefined, quick);
      await consume(subject, T0 + 1, 1, undefined, quick);
      await consume(subject, T0 + 2, 1, undefined, quick);
      expect(await read(subject, T0 + 3, 1)).toEqual({ counts: [1], bannedUntil: T0 + 2 + 30_000 });
      expect(await read(subject, T0 + 2 + 30_000, 1)).toEqual({ counts: [1], bannedUntil: null });
    });

    const release = (subject: string, countedAt: number, now: number, perMinute: number, perDay?: number) =>
      harness().store.release({ subject, now, windows: windows(countedAt, perMinute, perDay) });

    it('gives one count back in each named window on release, so a released request leaves the quota as before', async () => {
      const subject = newSubject();
      await consume(subject, T0, 2, 100);
      await consume(subject, T0 + 1, 2, 100);
      await release(subject, T0 + 1, T0 + 2, 2, 100);
      expect(await read(subject, T0 + 3, 2, 100)).toEqual({ counts: [1, 1], bannedUntil: null });
      expect(await consume(subject, T0 + 4, 2, 100)).toEqual({ outcome: 'admitted', counts: [2, 2] });
    });

    it('releases nothing below zero, nothing into a later window, and nothing of another subject', async () => {
      const subject = newSubject();
      const other = newSubject();
      await release(subject, T0, T0, 5, 100);
      expect(await consume(subject, T0, 5, 100)).toEqual({ outcome: 'admitted', counts: [1, 1] });
      await consume(other, T0, 5, 100);
      expect(await consume(subject, T0 + MINUTE, 5, 100)).toEqual({ outcome: 'admitted', counts: [1, 2] });
      // The request counted at T0 is released once the minute has turned: only the day window still holds it.
      await release(subject, T0, T0 + MINUTE + 1, 5, 100);
      expect(await read(subject, T0 + MINUTE + 2, 5, 100)).toEqual({ counts: [1, 1], bannedUntil: null });
      expect(await read(other, T0 + 1, 5, 100)).toEqual({ counts: [1, 1], bannedUntil: null });
    });

    it('changes no ban on release', async () => {
      const subject = newSubject();
      const quickBan: BanRule = { strikes: 1, durationSeconds: 60, strikeIntervalSeconds: 0 };
      await consume(subject, T0, 1, undefined, quickBan);
      await consume(subject, T0 + 1, 1, undefined, quickBan);
      expect((await consume(subject, T0 + 2, 1, undefined, quickBan)).outcome).toBe('banned');
      await release(subject, T0, T0 + 3, 1);
      expect((await consume(subject, T0 + 4, 1, undefined, quickBan)).outcome).toBe('banned');
    });

    it('reads the ban alone when asked for no windows', async () => {
      const subject = newSubject();
      const quick: BanRule = { strikes: 1, durationSeconds: 30, strikeIntervalSeconds: 0 };
      expect(await harness().store.read({ subject, now: T0, windows: [] })).toEqual({ counts: [], bannedUntil: null });
      for (let i = 0; i < 3; i++) await consume(subject, T0 + i, 1, undefined, quick);
      expect(await harness().store.read({ subject, now: T0 + 3, windows: [] })).toEqual({ counts: [], bannedUntil: T0 + 2 + 30_000 });
    });

    it('lifts a ban on unban: the next request is judged on its counts alone', async () => {
      const subject = newSubject();
      const quick: BanRule = { strikes: 1, durationSeconds: 900, strikeIntervalSeconds: 0 };
      for (let i = 0; i < 3; i++) await consume(subject, T0 + i, 1, 100, quick);
      expect((await consume(subject, T0 + 3, 1, 100, quick)).outcome).toBe('banned');
      await harness().store.unban(subject);
      expect(await read(subject, T0 + 4, 1, 100)).toEqual({ counts: [1, 1], bannedUntil: null });
      // The minute is still full: rejected (a first rejection, not a strike), and admitted in the next minute.
      expect(await consume(subject, T0 + 5, 1, 100, quick)).toEqual({ outcome: 'rejected', counts: [1, 1], retryAt: T0 + MINUTE });
      expect(await consume(subject, T0 + MINUTE, 1, 100, quick)).toEqual({ outcome: 'admitted', counts: [1, 2] });
    });

    it('forgets the strikes on unban, so a rejected subject starts a new episode', async () => {
      const subject = newSubject();
      await consume(subject, T0, 1);
      for (let i = 0; i < BAN.strikes - 1; i++) expect((await consume(subject, T0 + 10 + i * SECOND, 1)).outcome).toBe('rejected'); // 1 rejection + 8 strikes
      await harness().store.unban(subject);
      for (let i = 0; i < BAN.strikes; i++) expect((await consume(subject, T0 + 20 * SECOND + i * SECOND, 1)).outcome).toBe('rejected');
      expect((await consume(subject, T0 + 20 * SECOND + BAN.strikes * SECOND, 1)).outcome).toBe('banned');
    });

    it('changes nothing when unbanning a subject that is not banned or never seen', async () => {
      const subject = newSubject();
      await consume(subject, T0, 3);
      await harness().store.unban(subject);
      await harness().store.unban(newSubject());
      expect(await consume(subject, T0 + 1, 3)).toEqual({ outcome: 'admitted', counts: [2] });
    });

    it('uses the ban rule it is given', async () => {
      const subject = newSubject();
      const quick: BanRule = { strikes: 1, durationSeconds: 30, strikeIntervalSeconds: 0 };
      await consume(subject, T0, 1, undefined, quick);
      expect((await consume(subject, T0 + 1, 1, undefined, quick)).outcome).toBe('rejected');
      expect(await consume(subject, T0 + 2, 1, undefined, quick)).toEqual({ outcome: 'banned', counts: [1], bannedUntil: T0 + 2 + 30_000 });
    });
  });
}
