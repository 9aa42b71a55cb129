import { useState } from 'preact/hooks';
import { ApiError, type AdminApi } from '../api.js';
import { ErrorNote, Field, invalid, SecretOnce, usePages, when } from '../parts.js';
import { href } from '../route.js';
import type { IssuedWebhookEndpoint, NewWebhookEndpoint } from '../types.js';
import { useLoad } from '../useLoad.js';

const EVENT_TYPES = ['pet.created', 'pet.updated'] as const;

export function Webhooks({ api }: { api: AdminApi }) {
  const pages = usePages();
  const listed = useLoad(() => api.listEndpoints(pages.cursor), [pages.cursor]);
  return (
    <>
      <h1>Webhooks</h1>
      <CreateEndpoint api={api} onCreated={listed.reload} />
      <h2>Endpoints</h2>
      <ErrorNote error={listed.error} />
      <table>
        <caption>Webhook endpoints, oldest first</caption>
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Events</th>
            <th scope="col">Description</th>
            <th scope="col">State</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {listed.data?.endpoints.map((endpoint) => (
            <tr key={endpoint.id}>
              <td>
                <a href={href('webhooks', endpoint.id)}>{endpoint.url}</a>
              </td>
              <td>{endpoint.eventTypes.join(', ')}</td>
              <td>{endpoint.description}</td>
              <td>{endpoint.disabled ? `disabled (${endpoint.disabledReason ?? 'manual'})` : 'enabled'}</td>
              <td>{when(endpoint.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {listed.data?.endpoints.length === 0 && <p>No endpoints.</p>}
      {pages.controls(listed.data?.nextCursor)}
    </>
  );
}

function CreateEndpoint({ api, onCreated }: { api: AdminApi; onCreated: () => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<Set<string>>(new Set(EVENT_TYPES));
  const [error, setError] = useState<unknown>(null);
  const [issued, setIssued] = useState<IssuedWebhookEndpoint | null>(null);
  const fields = error instanceof ApiError ? error.fields : {};

  async function create(event: Event) {
    event.preventDefault();
    setError(null);
    setIssued(null);
    try {
      const endpoint: NewWebhookEndpoint = { url, description, eventTypes: EVENT_TYPES.filter((type) => types.has(type)) };
      setIssued(await api.createEndpoint(endpoint));
      onCreated();
    } catch (caught) {
      setError(caught);
    }
  }

  return (
    <form onSubmit={(event) => void create(event)} aria-labelledby="create-endpoint">
      <h2 id="create-endpoint">Add an endpoint</h2>
      <Field id="endpoint-url" label="URL" problem={fields['url']}>
        <input
          id="endpoint-url"
          type="url"
          value={url}
          onInput={(event) => setUrl(event.currentTarget.value)}
          {...invalid('endpoint-url', fields['url'])}
        />
      </Field>
      <Field id="endpoint-description" label="Description" problem={fields['description']}>
        <input id="endpoint-description" value={description} onInput={(event) => setDescription(event.currentTarget.value)} />
      </Field>
      <fieldset>
        <legend>Events</legend>
        {EVENT_TYPES.map((type) => (
          <label key={type}>
            <input
              type="checkbox"
              checked={types.has(type)}
              onChange={(event) => {
                const next = new Set(types);
                if (event.currentTarget.checked) next.add(type);
                else next.delete(type);
                setTypes(next);
              }}
            />{' '}
            {type}{' '}
          </label>
        ))}
        {fields['eventTypes'] && <span class="problem">{fields['eventTypes']}</span>}
      </fieldset>
      <button type="submit">Add endpoint</button>
      <ErrorNote error={error} />
      {issued && <SecretOnce label={`Endpoint ${issued.url} added. Its signing secret:`} secret={issued.secret} />}
    </form>
  );
}
