import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from './config.js';
import { closeContainer, createContainer } from './container.js';
import { startServer } from './server.js';
import { auth } from './testing/api.js';
import { TOKENS } from './tokens.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-key-usage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const today = () => new Date().toISOString().slice(0, 10);

describe("a key's last use and usage per day on SQLite", () => {
  it('show a request once the usage is flushed, and what is left is flushed at shutdown', async () => {
    const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'petstore.db')}`, PORT: '0', NODE_ENV: 'production', LOG_LEVEL: 'silent' });
    const container = createContainer(config);
    const server = await startServer(config, container);
    const petStore = await container.getAsync(TOKENS.PetStore);
    const { key, secret } = await petStore.issueApiKey.execute({ plan: 'pro' }, 'cli');
    expect(key.lastUsedAt).toBeNull();
    try {
      const before = Date.now();
      expect((await fetch(`${server.url}/pets`, { headers: auth(secret) })).status).toBe(200);
      await petStore.keyUsageRecorder.flush();
      const seen = await petStore.getApiKey.execute(key.id);
      expect(Date.parse(seen.lastUsedAt!)).toBeGreaterThanOrEqual(before);
      const { days } = await petStore.getApiKeyUsage.execute(key.id);
      expect(days.filter(({ requests }) => requests > 0)).toEqual([{ day: today(), requests: 1, limited: 0 }]);
      expect((await fetch(`${server.url}/pets`, { headers: auth(secret) })).status).toBe(200);
    } finally {
      await server.close();
    }

    const reopened = createContainer(config);
    try {
      const usage = await (await reopened.getAsync(TOKENS.PetStore)).getApiKeyUsage.execute(key.id);
      expect(usage.days.filter(({ requests }) => requests > 0)).toEqual([{ day: today(), requests: 2, limited: 0 }]);
    } finally {
      await closeContainer(reopened);
    }
  }, 30_000);
});
