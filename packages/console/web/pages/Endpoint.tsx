import { useState } from 'preact/hooks';
import type { AdminApi } from '../api.js';
import { ConfirmButton, DataTable, ErrorNote, SecretOnce, usePages, when, type Column } from '../parts.js';
import { href } from '../route.js';
import type { DeliveryAttemptPage, IssuedWebhookEndpoint, WebhookEndpoint } from '../types.js';
import { endpointState } from './Webhooks.js';
import { useLoad } from '../useLoad.js';

const ATTEMPT_COLUMNS: readonly Column<DeliveryAttemptPage['attempts'][number]>[] = [
  ['When', (attempt) => when(attempt.at)],
  ['Event', (attempt) => attempt.eventId],
  ['Attempt', (attempt) => attempt.attempt],
  ['Status', (attempt) => attempt.statusCode ?? 'no answer'],
  ['Duration', (attempt) => `${attempt.durationMs} ms`],
  ['Next retry', (attempt) => (attempt.nextAttemptAt ? <time dateTime={attempt.nextAttemptAt}>{when(attempt.nextAttemptAt)}</time> : '—')],
  ['Response kept', (attempt) => <code class="response">{attempt.responseBody ?? ''}</code>],
  ['Error', (attempt) => attempt.error ?? ''],
];

/** One endpoint: enable or disable it, rotate its secret, delete it; its delivery attempts, and a resend of each event. */
export function Endpoint({ api, id }: { api: AdminApi; id: string }) {
  const loaded = useLoad(() => api.getEndpoint(id), [id]);
  const pages = usePages();
  const deliveries = useLoad(() => api.listDeliveries(id, pages.cursor), [id, pages.cursor]);
  const [changed, setChanged] = useState<WebhookEndpoint | null>(null);
  const [rotated, setRotated] = useState<IssuedWebhookEndpoint | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const endpoint = changed ?? loaded.data;

  const run = async <T,>(action: () => Promise<T>, then: (result: T) => void) => {
    setError(null);
    setNotice(null);
    try {
      then(await action());
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <>
      <p>
        <a href={href('webhooks')}>Webhooks</a>
      </p>
      <h1>Endpoint</h1>
      <ErrorNote error={loaded.error ?? error} />
      {notice && <p role="status">{notice}</p>}
      {endpoint && (
        <>
          <dl>
            <dt>URL</dt>
            <dd>{endpoint.url}</dd>
            <dt>Events</dt>
            <dd>{endpoint.eventTypes.join(', ')}</dd>
            <dt>Description</dt>
            <dd>{endpoint.description || '—'}</dd>
            <dt>State</dt>
            <dd data-testid="endpoint-state">{endpointState(endpoint)}</dd>
            <dt>Previous secret signs until</dt>
            <dd>{when(endpoint.previousSecretExpiresAt)}</dd>
          </dl>
          <p>
            <button type="button" onClick={() => void run(() => api.updateEndpoint(id, { disabled: !endpoint.disabled }), setChanged)}>
              {endpoint.disabled ? 'Enable' : 'Disable'}
            </button>{' '}
            <button
              type="button"
              onClick={() =>
                void run(
                  () => api.rotateEndpointSecret(id),
                  (issued) => (setRotated(issued), setChanged(issued)),
                )
              }
            >
              Rotate the secret
            </button>{' '}
            <ConfirmButton
              label="Delete"
              question={`Delete the endpoint ${endpoint.url}? It will be sent nothing more.`}
              onConfirm={() =>
                void run(
                  () => api.deleteEndpoint(id),
                  () => (location.hash = href('webhooks')),
                )
              }
            />
          </p>
          {rotated && <SecretOnce label="The new signing secret (the old one also signs for 24 hours)." secret={rotated.secret} />}
        </>
      )}
      <h2>Delivery attempts</h2>
      <p>
        <button type="button" onClick={deliveries.reload}>
          Refresh
        </button>
      </p>
      <ErrorNote error={deliveries.error} />
      <DataTable
        caption="Attempts, newest first"
        columns={[
          ...ATTEMPT_COLUMNS,
          [
            'Resend',
            (attempt) => (
              <button
                type="button"
                aria-label={`Resend ${attempt.eventId}`}
                onClick={() =>
                  void run(
                    () => api.resend(id, attempt.eventId),
                    (accepted) => {
                      setNotice(`Event ${accepted.eventId} queued again (delivery ${accepted.deliveryId}).`);
                      deliveries.reload();
                    },
                  )
                }
              >
                Resend
              </button>
            ),
          ],
        ]}
        rows={deliveries.data?.attempts}
        rowKey={(attempt) => `${attempt.deliveryId}-${attempt.attempt}`}
        rowClass={(attempt) => (attempt.succeeded ? 'ok' : 'failed')}
        empty="No delivery attempts yet."
      />
      {pages.controls(deliveries.data?.nextCursor)}
    </>
  );
}
