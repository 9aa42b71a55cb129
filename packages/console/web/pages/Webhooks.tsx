import { useState } from 'preact/hooks';
import { ApiError, type AdminApi } from '../api.js';
import { DataTable, ErrorNote, SecretOnce, TextField, usePages, when, type Column } from '../parts.js';
import { href } from '../route.js';
import type { IssuedWebhookEndpoint, NewWebhookEndpoint, WebhookEndpoint } from '../types.js';
import { useLoad } from '../useLoad.js';

const EVENT_TYPES = ['pet.created', 'pet.updated'] as const;

export const endpointState = (endpoint: WebhookEndpoint) => (endpoint.disabled ? `disabled (${endpoint.disabledReason ?? 'manual'})` : 'enabled');

const ENDPOINT_COLUMNS: readonly Column<WebhookEndpoint>[] = [
  ['URL', (endpoint) => <a href={href('webhooks', endpoint.id)}>{endpoint.url}</a>],
  ['Events', (endpoint) => endpoint.eventTypes.join(', ')],
  ['Description', (endpoint) => endpoint.description],
  ['State', endpointState],
  ['Created', (endpoint) => when(endpoint.createdAt)],
];

export function Webhooks({ api }: { api: AdminApi }) {
  const pages = usePages();
  const listed = useLoad(() => api.listEndpoints(pages.cursor), [pages.cursor]);
  return (
    <>
      <h1>Webhooks</h1>
      <CreateEndpoint api={api} onCreated={listed.reload} />
      <h2>Endpoints</h2>
      <ErrorNote error={listed.error} />
      <DataTable
        caption="Webhook endpoints, oldest first"
        columns={ENDPOINT_COLUMNS}
        rows={listed.data?.endpoints}
        rowKey={(endpoint) => endpoint.id}
        empty="No endpoints."
      />
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
      <TextField id="endpoint-url" label="URL" type="url" value={url} onInput={setUrl} problem={fields['url']} />
      <TextField id="endpoint-description" label="Description" value={description} onInput={setDescription} problem={fields['description']} />
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
