export interface EventuallyOptions {
  /** Give up after this long; default 10 s. */
  timeoutMs?: number;
  /** Pause between two attempts; default 50 ms. */
  intervalMs?: number;
}

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/**
 * Calls `condition` until it returns a truthy value (which is returned) without throwing, or the time is up (the
 * last error, or a timeout error, is thrown). Tests wait for what they need to see, never for a fixed time.
 */
export async function eventually<T>(
  condition: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 50 }: EventuallyOptions = {},
): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let failure: unknown;
    try {
      const value = await condition();
      if (value) return value as Truthy<T>;
      failure = new Error(`condition still ${String(value)} after ${timeoutMs} ms`);
    } catch (error) {
      failure = error;
    }
    if (Date.now() >= deadline) throw failure;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
