import { describe, expect, it } from '@jest/globals';
import { createClient, type Pet } from './index.js';
import { FakeService } from './testing/FakeService.js';
import { fulfilled, settle, withFakeTime } from './testing/fakeTime.js';

describe('pages (fake service)', () => {
  withFakeTime();

  async function serviceWith(count: number) {
    const service = new FakeService({ perMinute: 1_000 });
    const client = createClient({ baseUrl: service.baseUrl, apiKey: service.apiKey, fetch: service.fetch });
    fulfilled(
      await settle(
        Array.from({ length: count }, (_, i) => client.createPet({ name: `Pet ${i}`, categoryId: 1, status: i % 2 ? 'sold' : 'pending' })),
      ),
    );
    service.log.length = 0;
    return { service, client };
  }

  it('returns a page and a way to the next, and null after the last', async () => {
    const { client } = await serviceWith(5);
    const [first] = fulfilled(await settle([client.listPets({ limit: 2 })]));
    expect(first!.pets.map((p) => p.id)).toEqual([1, 2]);
    expect(first!.nextCursor).toBe('2');

    const [second] = fulfilled(await settle([first!.next!()]));
    const [third] = fulfilled(await settle([second!.next!()]));
    expect(third!.pets.map((p) => p.id)).toEqual([5]);
    expect(third!.next).toBeNull();
    expect(third!.nextCursor).toBeNull();
  });

  it('iterates every pet of a status once, in id order, and sends the key only to its own base URL', async () => {
    const { service, client } = await serviceWith(11);
    const collect = async () => {
      const pets: Pet[] = [];
      for await (const pet of client.iteratePets({ status: 'pending', limit: 2 })) pets.push(pet);
      return pets;
    };
    const [pets] = fulfilled(await settle([collect()]));

    expect(pets!.map((p) => p.id)).toEqual([1, 3, 5, 7, 9, 11]);
    expect(service.log).toHaveLength(3);
    // The service's Link names another host; the client took only its query.
    expect(service.log.every((r) => r.url.origin === 'https://petstore.test')).toBe(true);
    expect(service.log.map((r) => r.url.search)).toEqual([
      '?status=pending&limit=2',
      '?status=pending&limit=2&cursor=3',
      '?status=pending&limit=2&cursor=7',
    ]);
  });
});

describe('createClient options', () => {
  it.each([
    [{ baseUrl: 'not a url', apiKey: 'pst_x' }, 'baseUrl must be an absolute URL'],
    [{ baseUrl: 'ftp://example.com/v1', apiKey: 'pst_x' }, 'baseUrl must be http or https'],
    [{ baseUrl: 'https://example.com/v1', apiKey: '' }, 'apiKey must be a non-empty string'],
    [{ baseUrl: 'https://example.com/v1', apiKey: 'pst_x', timeoutMs: -1 }, 'timeoutMs must be a number of 0 or more'],
  ])('refuses %j at once', (options, message) => {
    expect(() => createClient(options)).toThrow(message);
  });
});
