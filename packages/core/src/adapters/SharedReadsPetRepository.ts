import type { Pet, PetDraft } from '../pet/Pet.js';
import type { PetListRequest, PetPage, PetRepository } from '../ports/PetRepository.js';

/**
 * A PetRepository in front of another, where identical `list` requests that arrive while one is being read share
 * that read: under load, many clients asking for the same page cost one query. Each still gets a snapshot taken no
 * earlier than a read already under way, which is safe on every database. A create that succeeds ends the sharing
 * of the reads then in flight, so a caller that has been told its pet exists never joins a read that started
 * before it was stored.
 */
export class SharedReadsPetRepository implements PetRepository {
  readonly pagesWithSuccessorNeverChange: boolean;
  // Replaced rather than emptied: V8 reallocates a long-lived map's table, in the old generation, whenever it
  // shrinks or fills up with deleted entries, which with a read or more per request filled the old generation with
  // garbage (docs/performance.md). A fresh map when the last read settles lives and dies young.
  private inFlight = new Map<string, Promise<PetPage>>();

  constructor(private readonly inner: PetRepository) {
    this.pagesWithSuccessorNeverChange = inner.pagesWithSuccessorNeverChange;
  }

  async create(draft: PetDraft): Promise<Pet> {
    const pet = await this.inner.create(draft);
    this.inFlight = new Map();
    return pet;
  }

  findById(id: number): Promise<Pet | null> {
    return this.inner.findById(id);
  }

  list(request: PetListRequest): Promise<PetPage> {
    const key = `${request.status ?? ''}|${request.after ?? 0}|${request.limit}`;
    let read = this.inFlight.get(key);
    if (read === undefined) {
      const started = this.inner.list(request).finally(() => {
        if (this.inFlight.get(key) !== started) return;
        if (this.inFlight.size === 1) this.inFlight = new Map();
        else this.inFlight.delete(key);
      });
      this.inFlight.set(key, started);
      read = started;
    }
    return read;
  }
}
