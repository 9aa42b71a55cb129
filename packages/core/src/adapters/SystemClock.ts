import { setTimeout as wait } from 'node:timers/promises';
import type { Clock } from '../ports/Clock.js';

/** The clock of the machine the service runs on: what production wires to the `Clock` port. */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }

  async sleep(milliseconds: number): Promise<void> {
    await wait(milliseconds);
  }
}
