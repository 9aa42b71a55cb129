import { beforeEach, describe, expect, it } from '@jest/globals';
import type { KeyUsageIncrement } from '../ports/KeyUsageStore.js';
import { FakeClock } from '../testing/FakeClock.js';
import { InMemoryKeyUsageStore } from '../testing/InMemoryKeyUsageStore.js';
import { KeyUsageRecorder } from './KeyUsageRecorder.js';

const at = (iso: string) => Date.parse(iso);

describe('KeyUsageRecorder', () => {
  let store: InMemoryKeyUsageStore;
  let clock: FakeClock;
  let recorder: KeyUsageRecorder;

  beforeEach(() => {
    store = new InMemoryKeyUsageStore();
    clock = new FakeClock('2026-06-01T12:00:00Z');
    recorder = new KeyUsageRecorder(store, clock);
  });

  it('writes nothing until flushed, then each key’s requests per day and last use', async () => {
    recorder.record('key_a', at('2026-06-01T12:00:01Z'), true);
    recorder.record('key_a', at('2026-06-01T12:00:03Z'), true);
    recorder.record('key_a', at('2026-06-01T12:00:02Z'), false);
    recorder.record('key_b', at('2026-06-01T12:00:04Z'), false);
    expect(await store.lastUsedAt(['key_a', 'key_b'])).toEqual(new Map());
    await recorder.flush();
    expect(await store.dailyUsage('key_a', '2026-06-01', '2026-06-01')).toEqual([{ day: '2026-06-01', requests: 2, limited: 0 }]);
    expect(await store.lastUsedAt(['key_a', 'key_b'])).toEqual(
      new Map([
        ['key_a', new Date('2026-06-01T12:00:03Z')],
        ['key_b', new Date('2026-06-01T12:00:04Z')],
      ]),
    );
  });

  it('adds what each flush saw since the previous one', async () => {
    recorder.record('key_a', at('2026-06-01T12:00:01Z'), true);
    await recorder.flush();
    recorder.record('key_a', at('2026-06-01T12:00:31Z'), true);
    await recorder.flush();
    await recorder.flush();
    expect(await store.dailyUsage('key_a', '2026-06-01', '2026-06-01')).toEqual([{ day: '2026-06-01', requests: 2, limited: 0 }]);
  });

  it('counts the requests refused by the rate limit apart from those admitted, on their own UTC day', async () => {
    recorder.record('key_a', at('2026-06-01T23:59:58Z'), true);
    recorder.recordLimited('key_a', at('2026-06-01T23:59:59Z'));
    recorder.recordLimited('key_a', at('2026-06-02T00:00:00Z'));
    recorder.recordLimited('key_b', at('2026-06-02T00:00:01Z'));
    await recorder.flush();
    recorder.recordLimited('key_a', at('2026-06-02T00:00:02Z'));
    await recorder.flush();
    expect(await store.dailyUsage('key_a', '2026-06-01', '2026-06-02')).toEqual([
      { day: '2026-06-01', requests: 1, limited: 1 },
      { day: '2026-06-02', requests: 0, limited: 2 },
    ]);
    expect(await store.dailyUsage('key_b', '2026-06-02', '2026-06-02')).toEqual([{ day: '2026-06-02', requests: 0, limited: 1 }]);
    // A refused request is a use of the key.
    expect(await store.lastUsedAt(['key_a', 'key_b'])).toEqual(
      new Map([
        ['key_a', new Date('2026-06-02T00:00:02Z')],
        ['key_b', new Date('2026-06-02T00:00:01Z')],
      ]),
    );
  });

  it('counts each request on its own UTC day across midnight', async () => {
    recorder.record('key_a', at('2026-06-01T23:59:59.999Z'), true);
    recorder.record('key_a', at('2026-06-02T00:00:00Z'), true);
    recorder.record('key_a', at('2026-06-02T00:00:01Z'), true);
    recorder.record('key_a', at('2026-06-03T00:00:00Z'), true);
    await recorder.flush();
    expect(await store.dailyUsage('key_a', '2026-06-01', '2026-06-03')).toEqual([
      { day: '2026-06-01', requests: 1, limited: 0 },
      { day: '2026-06-02', requests: 2, limited: 0 },
      { day: '2026-06-03', requests: 1, limited: 0 },
    ]);
    expect((await store.lastUsedAt(['key_a'])).get('key_a')).toEqual(new Date('2026-06-03T00:00:00Z'));
  });

  it('keeps what a failed flush could not write, and writes it with the next, once per key and day', async () => {
    const batches: KeyUsageIncrement[][] = [];
    let fail = true;
    const flaky = Object.assign(Object.create(store) as InMemoryKeyUsageStore, {
      add: (increments: readonly KeyUsageIncrement[]) => {
        batches.push([...increments]);
        return fail ? Promise.reject(new Error('database down')) : store.add(increments);
      },
    });
    const flakyRecorder = new KeyUsageRecorder(flaky, clock);
    flakyRecorder.record('key_a', at('2026-06-01T12:00:01Z'), true);
    await expect(flakyRecorder.flush()).rejects.toThrow('database down');
    flakyRecorder.record('key_a', at('2026-06-01T12:00:40Z'), true);
    fail = false;
    await flakyRecorder.flush();
    expect(batches[1]).toEqual([{ keyId: 'key_a', day: '2026-06-01', requests: 2, limited: 0, lastUsedAt: new Date('2026-06-01T12:00:40Z') }]);
    expect(await store.dailyUsage('key_a', '2026-06-01', '2026-06-01')).toEqual([{ day: '2026-06-01', requests: 2, limited: 0 }]);
  });

  it('runs concurrent flushes one after the other, each writing once', async () => {
    recorder.record('key_a', at('2026-06-01T12:00:01Z'), true);
    await Promise.all([recorder.flush(), recorder.flush(), recorder.flush()]);
    expect(await store.dailyUsage('key_a', '2026-06-01', '2026-06-01')).toEqual([{ day: '2026-06-01', requests: 1, limited: 0 }]);
  });

  it('purges the days older than the retention, once a UTC day', async () => {
    await store.add([
      { keyId: 'key_a', day: '2026-03-02', requests: 1, limited: 0, lastUsedAt: new Date('2026-03-02T00:00:00Z') },
      { keyId: 'key_a', day: '2026-03-03', requests: 1, limited: 0, lastUsedAt: new Date('2026-03-03T00:00:00Z') },
    ]);
    await recorder.flush(); // 2026-06-01 minus 90 days: 2026-03-03 is kept
    expect(await store.dailyUsage('key_a', '2026-01-01', '2026-12-31')).toEqual([{ day: '2026-03-03', requests: 1, limited: 0 }]);
    await store.add([{ keyId: 'key_a', day: '2026-03-01', requests: 1, limited: 0, lastUsedAt: new Date('2026-03-01T00:00:00Z') }]);
    await recorder.flush(); // same day: no second purge
    expect(await store.dailyUsage('key_a', '2026-03-01', '2026-03-01')).toHaveLength(1);
    clock.advance(86_400_000);
    await recorder.flush();
    expect(await store.dailyUsage('key_a', '2026-01-01', '2026-12-31')).toEqual([]);
  });

  it.each([89, 90.5, Number.NaN])('refuses a retention of %p days', (days) => {
    expect(() => new KeyUsageRecorder(store, clock, days)).toThrow(RangeError);
  });
});
