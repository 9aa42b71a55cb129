import { useState } from 'preact/hooks';
import type { AdminApi } from '../api.js';
import { ConfirmButton, DataTable, ErrorNote, SecretOnce, TextField, when, type Column } from '../parts.js';
import { href } from '../route.js';
import type { ApiKey, AuditEventPage, IssuedApiKey, KeyUsage } from '../types.js';
import { UsageChart } from '../UsageChart.js';
import { useLoad } from '../useLoad.js';

const AUDIT_COLUMNS: readonly Column<AuditEventPage['events'][number]>[] = [
  ['When', (event) => when(event.at)],
  ['Action', (event) => event.action],
  ['By', (event) => event.actor],
  [
    'Changes',
    (event) =>
      Object.entries(event.changes)
        .map(([field, change]) => `${field}: ${JSON.stringify(change.before)} → ${JSON.stringify(change.after)}`)
        .join('; '),
  ],
];

const sum = (days: KeyUsage['days'], count: 'requests' | 'limited') => days.reduce((total, day) => total + day[count], 0);

/** One key: its settings and state, usage over the last 30 days, the audit trail, and what can be done to it. */
export function Key({ api, id }: { api: AdminApi; id: string }) {
  const key = useLoad(() => api.getKey(id), [id]);
  const usage = useLoad(() => api.getKeyUsage(id), [id]);
  const audit = useLoad(() => api.listAuditEvents(id), [id]);
  const [changed, setChanged] = useState<ApiKey | null>(null);
  const [rotated, setRotated] = useState<IssuedApiKey | null>(null);
  const [grace, setGrace] = useState('86400');
  const [error, setError] = useState<unknown>(null);
  const shown = changed ?? key.data;

  const act = (action: () => Promise<ApiKey>) => async () => {
    setError(null);
    try {
      setChanged(await action());
      audit.reload();
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <>
      <p>
        <a href={href('keys')}>Keys</a>
      </p>
      <h1>Key {shown?.name || id}</h1>
      <ErrorNote error={key.error ?? error} />
      {shown && (
        <>
          <dl>
            <dt>Id</dt>
            <dd>{shown.id}</dd>
            <dt>Plan</dt>
            <dd>{shown.plan}</dd>
            <dt>Limits</dt>
            <dd>
              {shown.limits.perMinute} per minute, {shown.limits.perDay} per day
            </dd>
            <dt>Scopes</dt>
            <dd>{shown.scopes.join(', ')}</dd>
            <dt>State</dt>
            <dd data-testid="key-status">{shown.status}</dd>
            <dt>Last use</dt>
            <dd>{when(shown.lastUsedAt)}</dd>
            <dt>Expires</dt>
            <dd>{when(shown.expiresAt)}</dd>
            <dt>Banned until</dt>
            <dd>{when(shown.bannedUntil)}</dd>
            <dt>Previous secret works until</dt>
            <dd>{when(shown.previousSecretExpiresAt)}</dd>
          </dl>
          <h2>Actions</h2>
          <form
            class="inline"
            onSubmit={(event) => {
              event.preventDefault();
              setError(null);
              api.rotateKey(id, Number(grace)).then((issued) => {
                setRotated(issued);
                setChanged(issued);
                audit.reload();
              }, setError);
            }}
          >
            <TextField id="grace" label="Old secret keeps working for (seconds)" value={grace} onInput={setGrace} numeric />
            <button type="submit" disabled={shown.status === 'revoked'}>
              Rotate the secret
            </button>
          </form>
          {rotated && <SecretOnce label="The new secret." secret={rotated.key} />}
          <p>
            <ConfirmButton
              label="Unban"
              question={`Lift the rate-limit ban of ${shown.name || shown.id}?`}
              disabled={shown.bannedUntil === null}
              onConfirm={() => void act(() => api.unbanKey(id))()}
            />{' '}
            <ConfirmButton
              label="Revoke"
              question={`Revoke ${shown.name || shown.id} for good? Every request with it will be refused.`}
              disabled={shown.status === 'revoked'}
              onConfirm={() => void act(() => api.revokeKey(id))()}
            />
          </p>
        </>
      )}
      <h2>Usage, last 30 days</h2>
      <ErrorNote error={usage.error} />
      <p>
        <button type="button" onClick={usage.reload}>
          Refresh usage
        </button>{' '}
        <span data-testid="usage-total">
          {usage.data &&
            `${sum(usage.data.days, 'requests')} requests admitted and ${sum(usage.data.days, 'limited')} refused by the rate limit in these 30 days`}
        </span>
      </p>
      {usage.data && shown && <UsageChart usage={usage.data} perDay={shown.limits.perDay} />}
      <h2>Audit trail</h2>
      <ErrorNote error={audit.error} />
      <DataTable
        caption="Administrative actions on this key, newest first"
        columns={AUDIT_COLUMNS}
        rows={audit.data?.events}
        rowKey={(event) => event.id}
        empty="No actions recorded."
      />
    </>
  );
}
