/** What the flush timer needs of core's KeyUsageRecorder. */
export interface Flushable {
  flush(): Promise<void>;
}

/** How often the app writes the keys' last use and usage per day: `lastUsedAt` is at most this old (plus a write). */
export const KEY_USAGE_FLUSH_INTERVAL_MS = 30_000;

/**
 * Flushes `recorder` every `intervalMs` on an unref'd timer (it never keeps the process alive). A failed flush is
 * reported to `onError` and retried by the next one (the recorder keeps what it could not write). The returned
 * function stops the timer and flushes one last time, for shutdown; that last failure is reported too.
 */
export function flushKeyUsagePeriodically(recorder: Flushable, intervalMs: number, onError: (error: unknown) => void): () => Promise<void> {
  const timer = setInterval(() => void recorder.flush().catch(onError), intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await recorder.flush().catch(onError);
  };
}
