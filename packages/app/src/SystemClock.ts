import type { Clock } from '@petstore/core';

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}
