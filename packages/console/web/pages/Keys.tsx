import { useState } from 'preact/hooks';
import { ApiError, type AdminApi } from '../api.js';
import { asTyped, ErrorNote, Field, invalid, SecretOnce, usePages, when } from '../parts.js';
import { href } from '../route.js';
import type { IssuedApiKey, NewApiKey } from '../types.js';
import { useLoad } from '../useLoad.js';

const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;
const SCOPES = ['pets:read', 'pets:write'] as const;

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
      <table>
        <caption>Keys, oldest first{name && `, whose name contains "${name}"`}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Plan</th>
            <th scope="col">Scopes</th>
            <th scope="col">State</th>
            <th scope="col">Last use</th>
            <th scope="col">Expires</th>
          </tr>
        </thead>
        <tbody>
          {listed.data?.keys.map((key) => (
            <tr key={key.id}>
              <td>
                <a href={href('keys', key.id)}>{key.name || key.id}</a>
              </td>
              <td>{key.plan}</td>
              <td>{key.scopes.join(', ')}</td>
              <td>{key.status}</td>
              <td>{when(key.lastUsedAt)}</td>
              <td>{when(key.expiresAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {listed.data?.keys.length === 0 && <p>No keys.</p>}
      {pages.controls(listed.data?.nextCursor)}
    </>
  );
}

function CreateKey({ api, onCreated }: { api: AdminApi; onCreated: () => void }) {
  const [form, setForm] = useState({ name: '', plan: 'free', read: true, write: false, perMinute: '', perDay: '', expiresAt: '' });
  const [error, setError] = useState<unknown>(null);
  const [issued, setIssued] = useState<IssuedApiKey | null>(null);
  const fields = error instanceof ApiError ? error.fields : {};
  const set = (field: keyof typeof form) => (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    setForm({ ...form, [field]: input.type === 'checkbox' ? input.checked : input.value });
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
      <Field id="key-name" label="Name" problem={fields['name']}>
        <input id="key-name" value={form.name} onInput={set('name')} {...invalid('key-name', fields['name'])} />
      </Field>
      <Field id="key-plan" label="Plan" problem={fields['plan']}>
        <select id="key-plan" value={form.plan} onChange={set('plan')}>
          {PLANS.map((plan) => (
            <option key={plan}>{plan}</option>
          ))}
        </select>
      </Field>
      <fieldset>
        <legend>Scopes</legend>
        <label>
          <input type="checkbox" checked={form.read} onChange={set('read')} /> pets:read
        </label>{' '}
        <label>
          <input type="checkbox" checked={form.write} onChange={set('write')} /> pets:write
        </label>
        {fields['scopes'] && <span class="problem">{fields['scopes']}</span>}
      </fieldset>
      <Field id="key-per-minute" label="Requests per minute (empty: the plan's)" problem={fields['perMinute']}>
        <input
          id="key-per-minute"
          inputMode="numeric"
          value={form.perMinute}
          onInput={set('perMinute')}
          {...invalid('key-per-minute', fields['perMinute'])}
        />
      </Field>
      <Field id="key-per-day" label="Requests per day (empty: the plan's)" problem={fields['perDay']}>
        <input id="key-per-day" inputMode="numeric" value={form.perDay} onInput={set('perDay')} {...invalid('key-per-day', fields['perDay'])} />
      </Field>
      <Field id="key-expires" label="Expires (empty: never)" problem={fields['expiresAt']}>
        <input
          id="key-expires"
          type="datetime-local"
          value={form.expiresAt}
          onInput={set('expiresAt')}
          {...invalid('key-expires', fields['expiresAt'])}
        />
      </Field>
      <button type="submit">Create key</button>
      <ErrorNote error={error} />
      {issued && <SecretOnce label={`Key ${issued.name || issued.id} created.`} secret={issued.key} />}
    </form>
  );
}
