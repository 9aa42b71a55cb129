import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import { runCli, spawnServer, STOPPED_AT_ONCE, type ServerProcess } from '@petstore/test-support';
import { describeWithPostgres } from '@petstore/test-support/jest';

const ADMIN_TOKEN = 'e2e-admin-token-2b7d9f1c3e5a7b9d1f3a5c7e9b1d3f5a';

interface KeyBody {
  id: string;
  plan: string;
  limits: { perMinute: number; perDay: number };
  limitOverrides: { perMinute: number | null; perDay: number | null };
  name: string;
}
interface AuditBody {
  events: { action: string; changes: Record<string, { before: unknown; after: unknown }> }[];
}

// Two instances of the built server on one PostgreSQL: PATCHes sent at once to both, as two operators would.
describeWithPostgres('concurrent admin changes to one key, on two instances sharing PostgreSQL', (postgres) => {
  let instances: ServerProcess[];

  const admin = async (instance: number, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${instances[instance]!.adminUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  };
  const createProKey = async (limits: { perMinute: number; perDay: number }) =>
    (await admin(0, 'POST', '/keys', { name: 'contested', plan: 'pro', ...limits })).json as KeyBody & { key: string };
  const updates = async (id: string) =>
    ((await admin(1, 'GET', `/audit-events?keyId=${id}`)).json as AuditBody).events.filter((event) => event.action === 'key.updated');

  beforeAll(async () => {
    const env = { DATABASE_URL: postgres().url, ADMIN_TOKEN, ADMIN_PORT: '0', NODE_ENV: 'production' };
    instances = await Promise.all([spawnServer({ ...STOPPED_AT_ONCE, ...env }), spawnServer({ ...STOPPED_AT_ONCE, ...env })]);
  }, 60_000);
  afterAll(() => Promise.all(instances.map((instance) => instance.stop())));

  it('applies one of two changes that are each valid alone but forbidden together, and refuses the other: 20 of 20 tries', async () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const { id } = await createProKey({ perMinute: 500, perDay: 50_000 });
      const [toEnterprise, toPlanLimits] = await Promise.all([
        admin(0, 'PATCH', `/keys/${id}`, { plan: 'enterprise' }),
        admin(1, 'PATCH', `/keys/${id}`, { perMinute: null, perDay: null }),
      ]);
      expect([toEnterprise.status, toPlanLimits.status].sort()).toEqual([200, 400]);
      const stored = (await admin(0, 'GET', `/keys/${id}`)).json as KeyBody;
      const winner = (toEnterprise.status === 200 ? toEnterprise : toPlanLimits).json as KeyBody;
      expect(stored).toEqual(winner);
      expect(stored.plan === 'enterprise' && (stored.limitOverrides.perMinute === null || stored.limitOverrides.perDay === null)).toBe(false);
      // The audit trail holds exactly the change that was made.
      const [event, ...others] = await updates(id);
      expect(others).toHaveLength(0);
      expect(event!.changes).toEqual(
        toEnterprise.status === 200
          ? { plan: { before: 'pro', after: 'enterprise' } }
          : { perMinute: { before: 500, after: null }, perDay: { before: 50_000, after: null } },
      );
    }
  }, 120_000);

  it('loses no change: concurrent changes to different settings all apply, each audited with its own fields alone', async () => {
    const { id } = await createProKey({ perMinute: 500, perDay: 50_000 });
    const changes = [
      { perMinute: 900 },
      { perDay: 20_000 },
      { name: 'renamed' },
      { scopes: ['pets:read'] },
      { disabled: true },
      { expiresAt: '2099-01-01T00:00:00Z' },
    ];
    const answers = await Promise.all(changes.map((change, i) => admin(i % 2, 'PATCH', `/keys/${id}`, change)));
    expect(answers.map((answer) => answer.status)).toEqual(changes.map(() => 200));
    expect((await admin(1, 'GET', `/keys/${id}`)).json).toMatchObject({
      limitOverrides: { perMinute: 900, perDay: 20_000 },
      name: 'renamed',
      scopes: ['pets:read'],
      disabled: true,
      expiresAt: '2099-01-01T00:00:00.000Z',
    });
    const audited = (await updates(id)).map((event) => Object.keys(event.changes).sort().join());
    expect(audited.sort()).toEqual(['disabled', 'expiresAt', 'name', 'perDay', 'perMinute', 'scopes']);
  }, 60_000);

  it('still serves, shows and lists a key stored in a state the rules forbid, limited like a Free key', async () => {
    const { id, key } = await createProKey({ perMinute: 500, perDay: 50_000 });
    const client = new pg.Client({ connectionString: postgres().url });
    await client.connect();
    try {
      await client.query(`UPDATE api_keys SET plan = 'enterprise', per_minute = NULL, per_day = NULL WHERE id = $1`, [id]);
    } finally {
      await client.end();
    }
    const shown = await admin(0, 'GET', `/keys/${id}`);
    expect(shown).toMatchObject({
      status: 200,
      json: { plan: 'enterprise', limits: { perMinute: 60, perDay: 1_000 }, limitOverrides: { perMinute: null, perDay: null } },
    });
    const listed = await admin(1, 'GET', '/keys?limit=100');
    expect(listed.status).toBe(200);
    expect((listed.json as { keys: KeyBody[] }).keys.map((k) => k.id)).toContain(id);
    // Another instance's cache may hold the key as it was for up to the cache TTL (2 s): ask the one that changed nothing.
    const served = await fetch(`${instances[0]!.url}/pets`, { headers: { Authorization: `Bearer ${key}` } });
    expect([served.status, served.headers.get('x-ratelimit-limit')]).toEqual([200, '60']);
    const cli = await runCli(['keys', 'list', '--limit', '100'], { DATABASE_URL: postgres().url });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain(id);
    // Setting the limits puts it right.
    expect((await admin(0, 'PATCH', `/keys/${id}`, { perMinute: 100, perDay: 1_000 })).json).toMatchObject({
      limits: { perMinute: 100, perDay: 1_000 },
    });
  }, 60_000);

  it('starts a development server whose oldest key is in a forbidden state', async () => {
    const client = new pg.Client({ connectionString: postgres().url });
    await client.connect();
    try {
      await client.query(`UPDATE api_keys SET plan = 'enterprise', per_minute = NULL, per_day = NULL`);
    } finally {
      await client.end();
    }
    const development = await spawnServer({ ...STOPPED_AT_ONCE, DATABASE_URL: postgres().url, NODE_ENV: 'development' });
    try {
      expect((await fetch(`${new URL(development.url).origin}/readyz`)).status).toBe(200);
    } finally {
      await development.stop();
    }
  }, 60_000);
});
