/** A row of a listing: its id first (ascending in every listing). */
export type ListingRow = readonly [id: number, ...rest: unknown[]];

/** Reads up to `count` rows of a listing with ids greater than `after`, ascending. */
export type LoadRows<R extends ListingRow> = (after: number, count: number) => R[];

/** Whether a pet, as `row`, is in `listing`. */
export type InListing<R extends ListingRow> = (listing: string, row: R) => boolean;

/**
 * Every row of one listing with an id in (after, end], ascending: an exact copy of that stretch of the listing
 * as it was read. `end` is Infinity when the stretch runs to the end of the listing (a new pet would join it).
 */
interface Run<R> {
  listing: string;
  after: number;
  end: number;
  rows: R[];
}

/**
 * The fewest rows a miss reads: what the page still needs, but not less, so that a page rarely needs two reads. Not
 * more either: when the listings outgrow what is kept, a page costs about what it would without keeping anything.
 */
const MIN_ROWS_PER_READ = 32;

/**
 * Stretches of the pet listings (all pets, and each status) kept in memory, so that a page is served without
 * reading the database while nothing has changed. The runs of a listing are disjoint and sorted; a page is put
 * together from the runs covering it, and a miss reads what is missing, kept up to where the next kept run
 * starts. Correct only as long as the owner reports every change: `changed(row)` with the pet as the database
 * holds it after it was created or changed, which brings the run covering its id in every listing up to date, and
 * `clear()` when the database was changed elsewhere. At most `maxRows` rows are kept; the least recently used runs
 * go first.
 */
export class ListingRuns<R extends ListingRow> {
  private readonly listings = new Map<string, Run<R>[]>();
  /** Every run, least recently used first. */
  private readonly recency = new Set<Run<R>>();
  private rowsKept = 0;
  private reports = 0;

  constructor(
    private readonly maxRows: number,
    private readonly inListing: InListing<R>,
  ) {}

  /** Up to `count` rows of `listing` after id `after`, from the kept runs, reading (with `load`) what is missing. */
  page(listing: string, after: number, count: number, load: LoadRows<R>): R[] {
    const page: R[] = [];
    let position = after;
    for (;;) {
      const run = this.covering(listing, position) ?? this.read(listing, position, Math.max(count - page.length, MIN_ROWS_PER_READ), load);
      this.recency.delete(run);
      this.recency.add(run);
      let i = firstAfter(run.rows, position);
      while (page.length < count && i < run.rows.length) page.push(run.rows[i++]!);
      if (page.length === count || run.end === Infinity) return page;
      position = run.end;
    }
  }

  /**
   * A pet was created or changed, and is now `row`: in every listing, the run whose stretch holds its id takes out the
   * row it had, and takes in `row` if the pet is in that listing now (a status change moves it from one listing to
   * another). Each run stays an exact copy of its stretch, with nothing read again.
   */
  changed(row: R): void {
    this.reports++;
    const id = row[0];
    for (const [listing, runs] of this.listings) {
      const run = runs[lastIndexWhere(runs, (r) => r.after < id)];
      if (!run || id > run.end) continue;
      const next = firstAfter(run.rows, id);
      const had = next > 0 && run.rows[next - 1]![0] === id;
      const has = this.inListing(listing, row);
      if (had && has) run.rows[next - 1] = row;
      else if (had) run.rows.splice(next - 1, 1);
      else if (has) run.rows.splice(next, 0, row);
      this.rowsKept += Number(has) - Number(had);
    }
    this.keepAtMostMaxRows();
  }

  /** Forgets every run. */
  clear(): void {
    this.reports++;
    this.listings.clear();
    this.recency.clear();
    this.rowsKept = 0;
  }

  /** Grows with every `changed` and `clear`: the same value twice means that nothing was reported in between. */
  get revision(): number {
    return this.reports;
  }

  /** How many rows are kept. */
  get size(): number {
    return this.rowsKept;
  }

  private covering(listing: string, position: number): Run<R> | undefined {
    const runs = this.listings.get(listing);
    if (!runs) return undefined;
    const run = runs[lastIndexWhere(runs, (r) => r.after <= position)];
    return run && position < run.end ? run : undefined;
  }

  /** Reads `count` rows of `listing` after `position`, up to where the next kept run starts, and keeps them. */
  private read(listing: string, position: number, count: number, load: LoadRows<R>): Run<R> {
    const rows = load(position, count);
    let runs = this.listings.get(listing);
    if (!runs) this.listings.set(listing, (runs = []));
    const index = lastIndexWhere(runs, (r) => r.after <= position) + 1;
    const nextStart = runs[index]?.after ?? Infinity;
    const readTo = rows.length < count ? Infinity : rows[rows.length - 1]![0];
    const end = Math.min(readTo, nextStart);
    const run: Run<R> = { listing, after: position, end, rows: end < readTo ? rows.filter((row) => row[0] <= end) : rows };
    runs.splice(index, 0, run);
    this.rowsKept += run.rows.length;
    // The run just read is not among them yet (the page using it makes it the most recent).
    this.keepAtMostMaxRows();
    return run;
  }

  /** Drops the least recently used runs while more than `maxRows` rows are kept. */
  private keepAtMostMaxRows(): void {
    for (const run of this.recency) {
      if (this.rowsKept <= this.maxRows) return;
      this.drop(run);
    }
  }

  private drop(run: Run<R>): void {
    const runs = this.listings.get(run.listing)!;
    runs.splice(runs.indexOf(run), 1);
    this.recency.delete(run);
    this.rowsKept -= run.rows.length;
  }
}

/** The index of the first row with an id greater than `id`. */
function firstAfter(rows: readonly ListingRow[], id: number): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (rows[middle]![0] <= id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The last index of a sorted array whose element satisfies `test` (true for a prefix of it), or -1. */
function lastIndexWhere<T>(items: readonly T[], test: (item: T) => boolean): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (test(items[middle]!)) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}
