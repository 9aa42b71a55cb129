import { useState } from 'preact/hooks';
import { ApiError, type AdminApi } from '../api.js';
import { asTyped, DataTable, ErrorNote, Field, SecretOnce, TextField, usePages, when, type Column } from '../parts.js';
import { href } from '../route.js';
import type { ApiKey, IssuedApiKey, NewApiKey } from '../types.js';
import { useLoad } from '../useLoad.js';

const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
const SCOPES = ['pets:read', 'pets:write'] as const;

const KEY_COLUMNS: readonly Column<ApiKey>[] = [
  ['Name', (key) => <a href={href('keys', key.id)}>{key.name || key.id}</a>],
  ['Plan', (key) => key.plan],
  ['Scopes', (key) => key.scopes.join(', ')],
  ['State', (key) => key.status],
  ['Last use', (key) => when(key.lastUsedAt)],
  ['Expires', (key) => when(key.expiresAt)],
];

export function Keys({ api }: { api: AdminApi }) {
  const [search, setSearch] = useState('');
  const [name, setName] = useState('');
  const pages = usePages();
  const listed = useLoad(() => api.listKeys({ name: name || undefined, cursor: pages.cursor }), [name, pages.cursor]);

  return (
    <>
      <h1>Keys</h1>
      <CreateKey api={api} onCreated={listed.reload} />
      <h2>List</h2>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setName(search.trim());
          pages.reset();
        }}
      >
        <Field id="key-search" label="Name contains">
          <input id="key-search" type="search" value={search} onInput={(event) => setSearch(event.currentTarget.value)} />
        </Field>
        <button type="submit">Search</button>
      </form>
      <ErrorNote error={listed.error} />
      <DataTable
        caption={`Keys, oldest first${name && `, whose name contains "${name}"`}`}
        columns={KEY_COLUMNS}
        rows={listed.data?.keys}
        rowKey={(key) => key.id}
        empty="No keys."
      />
      {pages.controls(listed.data?.nextCursor)}
    </>
  );
}

function CreateKey({ api, onCreated }: { api: AdminApi; onCreated: () => void }) {
  const [form, setForm] = useState({ name: '', plan: 'free', read: true, write: false, perMinute: '', perDay: '', expiresAt: '' });
  const [error, setError] = useState<unknown>(null);
  const [issued, setIssued] = useState<IssuedApiKey | null>(null);
  const fields = error instanceof ApiError ? error.fields : {};
  const set = (field: keyof typeof form) => (value: string | boolean) => setForm({ ...form, [field]: value });
  const fromEvent = (field: keyof typeof form) => (event: Event) => {
    const input = event.currentTarget as HTMLInputElement | HTMLSelectElement;
    set(field)(input instanceof HTMLInputElement && input.type === 'checkbox' ? input.checked : input.value);
  };

  async function create(event: Event) {
    event.preventDefault();
    setError(null);
    setIssued(null);
    const key: NewApiKey = {
      plan: form.plan as NewApiKey['plan'],
      name: form.name,
      scopes: SCOPES.filter((scope) => (scope === 'pets:read' ? form.read : form.write)),
      ...(form.perMinute && { perMinute: asTyped(form.perMinute) }),
      ...(form.perDay && { perDay: asTyped(form.perDay) }),
      ...(form.expiresAt && { expiresAt: new Date(form.expiresAt).toISOString() }),
    };
    try {
      setIssued(await api.createKey(key));
      onCreated();
    } catch (caught) {
      setError(caught);
    }
  }

  return (
    <form onSubmit={(event) => void create(event)} aria-labelledby="create-key">
      <h2 id="create-key">Create a key</h2>
      <TextField id="key-name" label="Name" value={form.name} onInput={set('name')} problem={fields['name']} />
      <Field id="key-plan" label="Plan" problem={fields['plan']}>
        <select id="key-plan" value={form.plan} onChange={fromEvent('plan')}>
          {PLANS.map((plan) => (
            <option key={plan}>{plan}</option>
          ))}
        </select>
      </Field>
      <fieldset>
        <legend>Scopes</legend>
        <label>
          <input type="checkbox" checked={form.read} onChange={fromEvent('read')} /> pets:read
        </label>{' '}
        <label>
          <input type="checkbox" checked={form.write} onChange={fromEvent('write')} /> pets:write
        </label>
        {fields['scopes'] && <span class="problem">{fields['scopes']}</span>}
      </fieldset>
      <TextField
        id="key-per-minute"
        label="Requests per minute (empty: the plan's)"
        value={form.perMinute}
        onInput={set('perMinute')}
        problem={fields['perMinute']}
        numeric
      />
      <TextField
        id="key-per-day"
        label="Requests per day (empty: the plan's)"
        value={form.perDay}
        onInput={set('perDay')}
        problem={fields['perDay']}
        numeric
      />
      <TextField
        id="key-expires"
        label="Expires (empty: never)"
        type="datetime-local"
        value={form.expiresAt}
        onInput={set('expiresAt')}
        problem={fields['expiresAt']}
      />
      <button type="submit">Create key</button>
      <ErrorNote error={error} />
      {issued && <SecretOnce label={`Key ${issued.name || issued.id} created.`} secret={issued.key} />}
    </form>
  );
}
