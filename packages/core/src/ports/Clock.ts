/** Time as the domain sees it: what time it is, and a way to let some of it pass. */
export interface Clock {
  now(): Date;
  /** Resolves once `milliseconds` have passed on this clock. */
  sleep(milliseconds: number): Promise<void>;
}
