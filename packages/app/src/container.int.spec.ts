import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { FakeClock } from '@petstore/core/testing';
import { loadConfig } from './config.js';
import { closeContainer, createContainer } from './container.js';
import { TOKENS } from './tokens.js';

describe('createContainer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-container-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('wires the use cases to the configured adapters, resolved once', async () => {
    const container = createContainer(loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }));
    const store = await container.getAsync(TOKENS.PetStore);
    await store.createPet.execute({ name: 'Rex', categoryId: 1 });
    expect((await store.listPets.execute({})).pets).toEqual([{ id: 1, name: 'Rex', categoryId: 1, status: 'available', version: 1 }]);
    expect(await container.getAsync(TOKENS.PetStore)).toBe(store);
    await closeContainer(container);
  });

  it('lets an embedder or a test rebind a port before first use', async () => {
    const container = createContainer(loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }));
    container.rebind(TOKENS.Clock).toConstantValue(new FakeClock('2031-01-01T00:00:00Z'));
    const { clock } = await container.getAsync(TOKENS.PetStore);
    expect(clock.now().toISOString()).toBe('2031-01-01T00:00:00.000Z');
    await closeContainer(container);
  });

  it('opens SQLite with the synchronous mode SQLITE_SYNCHRONOUS names', async () => {
    const container = createContainer(
      loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'petstore.db')}`, SQLITE_SYNCHRONOUS: 'FULL', LOG_LEVEL: 'silent' }),
    );
    const dataSource = await container.getAsync(TOKENS.DataSource);
    expect(await dataSource.query('PRAGMA synchronous')).toEqual([{ synchronous: 2 }]);
    await closeContainer(container);
  });
});
