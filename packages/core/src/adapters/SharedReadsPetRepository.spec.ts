import { describe, expect, it } from '@jest/globals';
import type { PetListRequest, PetPage } from '../ports/PetRepository.js';
import { aPetDraft } from '../testing/builders.js';
import { InMemoryPetRepository } from '../testing/InMemoryPetRepository.js';
import { SharedReadsPetRepository } from './SharedReadsPetRepository.js';

/** The in-memory repository, counting its reads and holding them until released. */
class HeldRepository extends InMemoryPetRepository {
  reads = 0;
  private held: (() => void)[] | null = null;

  hold(): void {
    this.held = [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const go of held) go();
  }

  /** Lets the oldest held read answer; the others stay held. */
  releaseOldest(): void {
    this.held?.shift()?.();
  }

  override async list(request: PetListRequest): Promise<PetPage> {
    this.reads++;
    if (this.held) await new Promise<void>((resolve) => this.held!.push(resolve));
    return super.list(request);
  }
}

async function withPets(count: number): Promise<{ inner: HeldRepository; shared: SharedReadsPetRepository }> {
  const inner = new HeldRepository();
  for (let i = 1; i <= count; i++) await inner.create(aPetDraft({ name: `pet ${i}` }));
  return { inner, shared: new SharedReadsPetRepository(inner) };
}

const idsOf = (page: PetPage) => page.pets.map((p) => p.id);

describe('SharedReadsPetRepository', () => {
  it('lets identical requests share a read in flight, and reads anew once it has answered', async () => {
    const { inner, shared } = await withPets(3);
    inner.hold();
    const [a, b] = [shared.list({ limit: 2 }), shared.list({ limit: 2 })];
    const other = shared.list({ limit: 1 });
    const sold = shared.list({ limit: 2, status: 'sold' });
    const after = shared.list({ limit: 2, after: 1 });
    inner.release();
    expect(await a).toBe(await b);
    expect(idsOf(await other)).toEqual([1]);
    expect(idsOf(await sold)).toEqual([]);
    expect(idsOf(await after)).toEqual([2, 3]);
    expect(inner.reads).toBe(4);
    await shared.list({ limit: 2 });
    expect(inner.reads).toBe(5);
  });

  it('keeps sharing a read still in flight when another one answers', async () => {
    const { inner, shared } = await withPets(3);
    inner.hold();
    const first = shared.list({ limit: 1 });
    const second = shared.list({ limit: 2 });
    inner.releaseOldest();
    expect(idsOf(await first)).toEqual([1]);
    const joined = shared.list({ limit: 2 });
    inner.release();
    expect(await joined).toBe(await second);
    expect(inner.reads).toBe(2);
    expect(idsOf(await shared.list({ limit: 1 }))).toEqual([1]);
    expect(inner.reads).toBe(3);
  });

  it('does not let a request that arrives after a create join a read that started before it', async () => {
    const { inner, shared } = await withPets(3);
    inner.hold();
    const before = shared.list({ limit: 10 });
    await shared.create(aPetDraft({ name: 'just created' }));
    const after = shared.list({ limit: 10 });
    const joined = shared.list({ limit: 10 });
    inner.release();
    expect(idsOf(await before)).toEqual([1, 2, 3, 4]);
    expect(idsOf(await after)).toEqual([1, 2, 3, 4]);
    expect(await joined).toBe(await after);
    expect(inner.reads).toBe(2);
  });

  it('reads again after a failed read, and declares what its repository declares', async () => {
    const { inner } = await withPets(1);
    let reads = 0;
    const failing = new SharedReadsPetRepository({
      pagesWithSuccessorNeverChange: false,
      create: (draft) => inner.create(draft),
      findById: (id) => inner.findById(id),
      list: () => (reads++, Promise.reject(new Error('down'))),
    });
    await expect(failing.list({ limit: 1 })).rejects.toThrow('down');
    await expect(failing.list({ limit: 1 })).rejects.toThrow('down');
    expect(reads).toBe(2);
    expect(failing.pagesWithSuccessorNeverChange).toBe(false);
    expect(await failing.findById(1)).toEqual(expect.objectContaining({ id: 1 }));
  });
});
