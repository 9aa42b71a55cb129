import type { Clock } from '../ports/Clock.js';

/** A clock that only moves when told to, or by as much as a caller sleeps on it. */
export class FakeClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-01T00:00:00Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(instant: Date | string): void {
    this.current = new Date(instant).getTime();
  }

  advance(milliseconds: number): void {
    this.current += milliseconds;
  }

  /** Moves the clock on by `milliseconds` at once, then lets whatever else is pending run before resolving. */
  async sleep(milliseconds: number): Promise<void> {
    this.current += milliseconds;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
