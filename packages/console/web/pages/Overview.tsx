import { useState } from 'preact/hooks';
import type { AdminApi } from '../api.js';
import { ErrorNote, useEvery, when } from '../parts.js';
import type { Overview as Reading } from '../types.js';
import { useLoad } from '../useLoad.js';

const REFRESH_MS = 3_000;

/** Per minute between two readings of a cumulative count; null before the second. */
function perMinute(before: Reading | undefined, after: Reading | undefined, count: (reading: Reading) => number): string {
  if (!before || !after) return '…';
  const seconds = (Date.parse(after.at) - Date.parse(before.at)) / 1000;
  return seconds > 0 ? String(Math.round(((count(after) - count(before)) / seconds) * 60)) : '…';
}

/** The traffic and the webhook backlog, read every few seconds while the page is open. */
export function Overview({ api }: { api: AdminApi }) {
  const [previous, setPrevious] = useState<Reading | undefined>(undefined);
  const reading = useLoad(async () => {
    const next = await api.getOverview();
    setPrevious((was: Reading | undefined) => was ?? next);
    return next;
  }, []);
  useEvery(REFRESH_MS, () => {
    if (reading.data) setPrevious(reading.data);
    reading.reload();
  });
  const now = reading.data;
  return (
    <>
      <h1>Overview</h1>
      <ErrorNote error={reading.error} />
      {now && (
        <>
          <h2>Requests (this instance)</h2>
          <dl class="figures">
            <dt>Requests per minute</dt>
            <dd data-testid="requests-per-minute">{perMinute(previous, now, (r) => r.requests.answered)}</dd>
            <dt>429s per minute</dt>
            <dd data-testid="limited-per-minute">{perMinute(previous, now, (r) => r.requests.rateLimited)}</dd>
            <dt>Answered since {when(now.since)}</dt>
            <dd data-testid="requests-total">{now.requests.answered}</dd>
            <dt>429s since then</dt>
            <dd data-testid="limited-total">{now.requests.rateLimited}</dd>
          </dl>
          <h2>Webhooks</h2>
          <dl class="figures">
            <dt>Deliveries waiting (due or scheduled for a retry)</dt>
            <dd data-testid="webhook-pending">{now.webhooks.pending}</dd>
            <dt>Events not yet dispatched</dt>
            <dd data-testid="webhook-undispatched">{now.webhooks.undispatched}</dd>
            <dt>Lag</dt>
            <dd data-testid="webhook-lag">{now.webhooks.lagSeconds.toFixed(1)} s</dd>
          </dl>
          <p class="hint">
            Read at {when(now.at)}; refreshed every {REFRESH_MS / 1000} seconds.
          </p>
        </>
      )}
    </>
  );
}
