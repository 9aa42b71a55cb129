import { describe, expect, it } from '@jest/globals';
import { ServiceUnavailableError, type PetRepository } from '@petstore/core';
import { InMemoryPetRepository } from '@petstore/core/testing';
import { startTestApi } from './testing/startTestApi.js';

/** The in-memory repository, answering service_unavailable while `down` is set (a database outage). */
function repositoryWithOutage() {
  const pets = new InMemoryPetRepository();
  const state = { down: false };
  const guard = <T>(work: () => Promise<T>) => (state.down ? Promise.reject(new ServiceUnavailableError('database', 5)) : work());
  const repository: PetRepository = {
    create: (...args) => guard(() => pets.create(...args)),
    findById: (id) => guard(() => pets.findById(id)),
    list: (query) => guard(() => pets.list(query)),
    update: (...args) => guard(() => pets.update(...args)),
  };
  return { repository, state };
}

describe('a request refused because a dependency is down spends no quota', () => {
  it('gives back the count of every request answered 503 after admission, and bans nobody', async () => {
    const { repository, state } = repositoryWithOutage();
    const api = await startTestApi({ petRepository: repository, ban: { strikes: 2, durationSeconds: 900, strikeIntervalSeconds: 0 } });
    const key = await api.issueKey('free');
    expect((await api.authed(key, 'GET', '/v1/pets')).headers['x-ratelimit-remaining']).toBe('59');

    state.down = true;
    for (let i = 0; i < 70; i++) {
      const refused = await api.authed(key, i % 2 ? 'GET' : 'POST', '/v1/pets', { body: i % 2 ? undefined : { name: `Rex ${i}`, categoryId: 1 } });
      // The headers show the quota as it is once the count is given back.
      expect(refused).toMatchObject({
        status: 503,
        headers: { 'retry-after': '5', 'x-ratelimit-remaining': '59', ratelimit: expect.stringContaining('"minute";r=59;') },
      });
    }
    state.down = false;

    const usage = await api.authed(key, 'GET', '/v1/rate_limit');
    expect(usage.json).toMatchObject({
      windows: [
        { name: 'minute', used: 1 },
        { name: 'day', used: 1 },
      ],
      bannedUntil: null,
    });
    expect((await api.authed(key, 'GET', '/v1/pets')).headers['x-ratelimit-remaining']).toBe('58');
    await api.close();
  });
});
