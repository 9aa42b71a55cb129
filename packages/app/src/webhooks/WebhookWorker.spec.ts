import { describe, expect, it } from '@jest/globals';
import type { DeliveryRound } from '@petstore/core';
import { WebhookWorker, type WorkerTimers } from './WebhookWorker.js';

/** Timers that run only when told to. */
function manualTimers() {
  const due: { run: () => void; ms: number }[] = [];
  const timers: WorkerTimers = {
    setTimeout: (run, ms) => {
      const timer = { run, ms };
      due.push(timer);
      return timer;
    },
    clearTimeout: (handle) => {
      const index = due.indexOf(handle as (typeof due)[number]);
      if (index >= 0) due.splice(index, 1);
    },
  };
  return { timers, due, fire: () => due.splice(0).forEach((timer) => timer.run()) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const idle: DeliveryRound = { dispatched: 0, started: [], more: false };
const full: DeliveryRound = { dispatched: 50, started: [], more: true };
const some: DeliveryRound = { dispatched: 3, started: [], more: false };

describe('the webhook worker', () => {
  it('runs a round when started, another at once while rounds fill a batch, then polls at the interval', async () => {
    const results = [full, full, some];
    let rounds = 0;
    const { timers, due, fire } = manualTimers();
    const worker = new WebhookWorker({ execute: async () => (rounds++, results.shift() ?? idle) }, 1000, () => {}, timers);
    worker.start();
    for (let i = 0; i < 5; i++) await settle();
    expect(rounds).toBe(3);
    expect(due.map((timer) => timer.ms)).toEqual([1000]);
    fire();
    await settle();
    expect(rounds).toBe(4);
    await worker.stop();
  });

  it('ends a round without waiting for its attempts, runs the next when one ends, and waits for them at stop', async () => {
    const held: (() => void)[] = [];
    const attempt = () => new Promise<never>((resolve) => held.push(() => resolve(undefined as never)));
    const results: DeliveryRound[] = [{ dispatched: 2, started: [attempt(), attempt()], more: false }];
    let rounds = 0;
    const { timers, due } = manualTimers();
    const worker = new WebhookWorker({ execute: async () => (rounds++, results.shift() ?? idle) }, 1000, () => {}, timers, 5);
    worker.start();
    await settle();
    expect(rounds).toBe(1);
    expect(due.map((timer) => timer.ms)).toEqual([1000]);
    held.shift()!();
    await settle();
    // An attempt ended: its endpoint may take another, so a round runs a few milliseconds later.
    expect(due.map((timer) => timer.ms)).toEqual([1000, 5]);
    due.splice(1)[0]!.run();
    await settle();
    expect(rounds).toBe(2);
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    held.shift()!();
    await stopping;
  });

  it('runs one round at a time: a wake during a round runs another once it ends', async () => {
    const held: (() => void)[] = [];
    let started = 0;
    const worker = new WebhookWorker(
      {
        execute: () => {
          started++;
          return new Promise<DeliveryRound>((resolve) => held.push(() => resolve(idle)));
        },
      },
      1000,
      () => {},
      manualTimers().timers,
    );
    worker.start();
    worker.wake();
    worker.wake();
    expect(started).toBe(1);
    held.shift()!();
    await settle();
    await settle();
    expect(started).toBe(2);
    held.splice(0).forEach((release) => release());
    await worker.stop();
  });

  it('runs one round a few milliseconds after changes, for all those committed meanwhile', async () => {
    let rounds = 0;
    const { timers, due, fire } = manualTimers();
    const worker = new WebhookWorker({ execute: async () => (rounds++, idle) }, 1000, () => {}, timers, 5);
    worker.changed();
    worker.changed();
    expect(rounds).toBe(0);
    expect(due.map((timer) => timer.ms)).toEqual([5]);
    fire();
    await settle();
    expect(rounds).toBe(1);
    await worker.stop();
    expect(due).toEqual([]);
  });

  it('reports a failing round and tries again at the next poll; stop waits for the round under way', async () => {
    const errors: unknown[] = [];
    let release: (() => void) | undefined;
    const { timers, due } = manualTimers();
    const worker = new WebhookWorker(
      {
        execute: () =>
          errors.length === 0 ? Promise.reject(new Error('database down')) : new Promise<DeliveryRound>((resolve) => (release = () => resolve(idle))),
      },
      1000,
      (error) => errors.push(error),
      timers,
    );
    worker.start();
    await settle();
    expect(errors).toEqual([new Error('database down')]);
    expect(due).toHaveLength(1);
    due.splice(0)[0]!.run();
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    release!();
    await stopping;
    expect(due).toEqual([]);
  });
});
