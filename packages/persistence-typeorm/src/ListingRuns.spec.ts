import { describe, expect, it } from '@jest/globals';
import { ListingRuns } from './ListingRuns.js';

type Row = [id: number, status: string, version: number];

const inListing = (listing: string, row: Row) => listing === '' || listing === row[1];

/** A table of pets and its listings ('' for all, or one status), read as the database would. */
function table(count: number) {
  const rows: Row[] = Array.from({ length: count }, (_, i) => [i + 1, ['available', 'pending', 'sold'][i % 3]!, 1]);
  let reads = 0;
  const page = (name: string, after: number, limit: number) =>
    rows.filter((row) => (name === '' || row[1] === name) && row[0] > after).slice(0, limit);
  const load = (name: string) => (after: number, limit: number) => {
    reads++;
    return page(name, after, limit);
  };
  return {
    rows,
    load,
    /** How many times the table was read while `act` ran. */
    readsDuring(act: () => void): number {
      const before = reads;
      act();
      return reads - before;
    },
    /** Asks `runs` for a page (they read this table when they must) and checks that it is the table's page. */
    expectPage(runs: ListingRuns<Row>, name: string, after: number, limit: number): void {
      expect(runs.page(name, after, limit, load(name))).toEqual(page(name, after, limit));
    },
  };
}

describe('ListingRuns', () => {
  it('moves its revision with every change and clearing reported, and never with a page', () => {
    const pets = table(100);
    const runs = new ListingRuns<Row>(1_000, inListing);
    const seen = [runs.revision];
    pets.expectPage(runs, '', 0, 21);
    expect(runs.revision).toBe(seen[0]);
    for (const report of [() => runs.changed([5, 'sold', 2]), () => runs.changed([10_000, 'available', 1]), () => runs.clear()]) {
      report();
      expect(seen).not.toContain(runs.revision);
      seen.push(runs.revision);
    }
  });

  it('serves pages of a listing it has read from memory', () => {
    const pets = table(500);
    const runs = new ListingRuns<Row>(10_000, inListing);
    pets.expectPage(runs, '', 0, 101);
    const again = () => {
      pets.expectPage(runs, '', 0, 21);
      pets.expectPage(runs, '', 20, 51);
    };
    expect(pets.readsDuring(again)).toBe(0);
  });

  it('stitches a page from the runs that cover it, reading only what is missing', () => {
    const pets = table(1_000);
    const runs = new ListingRuns<Row>(10_000, inListing);
    runs.page('sold', 300, 101, pets.load('sold'));
    // Read up to where the first run starts, and the rest of the page from it.
    expect(pets.readsDuring(() => pets.expectPage(runs, 'sold', 0, 101))).toBe(1);
    const acrossBoth = () => {
      pets.expectPage(runs, 'sold', 250, 101);
      pets.expectPage(runs, 'sold', 0, 101);
    };
    expect(pets.readsDuring(acrossBoth)).toBe(0);
  });

  it('brings a changed pet up to date in every listing it stayed in, left or joined, without reading again', () => {
    const pets = table(300);
    const runs = new ListingRuns<Row>(10_000, inListing);
    for (const name of ['', 'available', 'pending', 'sold']) runs.page(name, 0, 101, pets.load(name));
    const size = runs.size;
    pets.rows[0] = [1, 'pending', 2];
    runs.changed(pets.rows[0]);
    pets.rows[2] = [3, 'sold', 2];
    runs.changed(pets.rows[2]);
    expect(pets.readsDuring(() => ['', 'available', 'pending', 'sold'].forEach((name) => pets.expectPage(runs, name, 0, 101)))).toBe(0);
    expect(runs.size).toBe(size);
  });

  it('shows a new pet on the last page of its listing', () => {
    const pets = table(30);
    const runs = new ListingRuns<Row>(10_000, inListing);
    pets.expectPage(runs, 'available', 20, 101);
    pets.rows.push([31, 'available', 1]);
    runs.changed(pets.rows[30]!);
    expect(pets.readsDuring(() => expect(runs.page('available', 20, 101, pets.load('available')).map(([id]) => id)).toEqual([22, 25, 28, 31]))).toBe(
      0,
    );
  });

  it('reads no more than a page needs (at least 32 rows), so that a store larger than what is kept costs what it would', () => {
    const pets = table(2_000);
    const runs = new ListingRuns<Row>(100, inListing);
    expect(pets.readsDuring(() => pets.expectPage(runs, '', 500, 80))).toBe(1);
    expect(runs.size).toBe(80);
    runs.page('', 1_000, 5, pets.load(''));
    expect(runs.size).toBe(32);
  });

  it('keeps at most its maximum of rows, dropping the least recently used runs', () => {
    const pets = table(2_000);
    const runs = new ListingRuns<Row>(300, inListing);
    runs.page('', 0, 101, pets.load(''));
    runs.page('', 1_000, 101, pets.load(''));
    runs.page('', 0, 10, pets.load(''));
    runs.page('', 1_500, 101, pets.load(''));
    expect(runs.size).toBeLessThanOrEqual(300);
    expect(pets.readsDuring(() => runs.page('', 0, 101, pets.load('')))).toBe(0);
    expect(pets.readsDuring(() => runs.page('', 1_000, 101, pets.load('')))).toBe(1);
  });

  it('forgets everything when cleared', () => {
    const pets = table(100);
    const runs = new ListingRuns<Row>(10_000, inListing);
    runs.page('', 0, 10, pets.load(''));
    runs.clear();
    expect(runs.size).toBe(0);
    pets.rows[0] = [1, 'sold', 2];
    pets.expectPage(runs, '', 0, 10);
  });

  it('answers every page as the table is, through thousands of random pages, changes and creates', () => {
    let state = 7;
    const random = (below: number) => {
      state = (state * 48_271) % 2_147_483_647;
      return state % below;
    };
    const statuses = ['available', 'pending', 'sold'];
    const pets = table(600);
    const runs = new ListingRuns<Row>(400, inListing);
    for (let step = 0; step < 5_000; step++) {
      const action = random(10);
      if (action === 0) {
        const index = random(pets.rows.length);
        const [id, , version] = pets.rows[index]!;
        pets.rows[index] = [id, statuses[random(3)]!, version + 1];
        runs.changed(pets.rows[index]);
      } else if (action === 1) {
        const id = pets.rows.length + 1;
        pets.rows.push([id, statuses[random(3)]!, 1]);
        runs.changed(pets.rows[id - 1]!);
      } else {
        const name = ['', ...statuses][random(4)]!;
        const after = random(pets.rows.length + 5);
        const limit = 1 + random(101);
        pets.expectPage(runs, name, after, limit);
      }
    }
  });
});
