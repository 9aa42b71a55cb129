import { useState } from 'preact/hooks';
import type { AdminApi } from '../api.js';
import { ConfirmButton, ErrorNote, SecretOnce, usePages, when } from '../parts.js';
import { href } from '../route.js';
import type { IssuedWebhookEndpoint, WebhookEndpoint } from '../types.js';
import { useLoad } from '../useLoad.js';

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
            <dd data-testid="endpoint-state">{endpoint.disabled ? `disabled (${endpoint.disabledReason ?? 'manual'})` : 'enabled'}</dd>
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
      <table>
        <caption>Attempts, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Event</th>
            <th scope="col">Attempt</th>
            <th scope="col">Status</th>
            <th scope="col">Duration</th>
            <th scope="col">Response kept</th>
            <th scope="col">Error</th>
            <th scope="col">Resend</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.data?.attempts.map((attempt) => (
            <tr key={`${attempt.deliveryId}-${attempt.attempt}`} class={attempt.succeeded ? 'ok' : 'failed'}>
              <td>{when(attempt.at)}</td>
              <td>{attempt.eventId}</td>
              <td>{attempt.attempt}</td>
              <td>{attempt.statusCode ?? 'no answer'}</td>
              <td>{attempt.durationMs} ms</td>
              <td>
                <code class="response">{attempt.responseBody ?? ''}</code>
              </td>
              <td>{attempt.error ?? ''}</td>
              <td>
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
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {deliveries.data?.attempts.length === 0 && <p>No delivery attempts yet.</p>}
      {pages.controls(deliveries.data?.nextCursor)}
    </>
  );
}
