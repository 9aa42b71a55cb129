import type { Clock } from '../ports/Clock.js';

/** The clock of the machine the service runs on: what production wires to the `Clock` port. */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}
