/**
 * The dispatch of events into webhook deliveries, and the holds of failing endpoints (DeliveryQueue.dispatch and
 * hold), written once for both databases as steps: each step is a statement (with `?` placeholders) whose rows come
 * back into the next. SQLite runs the steps in one immediate transaction, synchronously; PostgreSQL in one transaction
 * that first locks the dispatch head, so dispatches and holds of every instance take turns.
 *
 * Each dispatched event gets the next number of `webhook_dispatch_head` (`pet_events.dispatch_seq`): the order
 * events were dispatched in, gapless, committed in that order. A held endpoint (`webhook_endpoint_holds`) keeps its
 * place in it (`position`: the number of the last event it was given); an endpoint without a hold is live and gets
 * each event as it is dispatched.
 */

/** One statement; `?` placeholders, numbered `$1`... on PostgreSQL (`numbered`). */
export interface Step {
  text: string;
  parameters: unknown[];
}

/** Steps that end with a value; each step is answered with its rows (none for a write). */
export type Steps<T> = Generator<Step, T, Record<string, unknown>[]>;

/** How many of its events past its position a held endpoint's turn reads at most (the rest at its next turn). */
const HOLD_SCAN = 1_000;
/** Held endpoints given their due in one dispatch at most (the others at the next). */
const HOLDS_PER_DISPATCH = 1_000;

/** An endpoint (`e`, its types stored comma-separated) subscribed to the event `p`. */
const SUBSCRIBED = `(',' || e."event_types" || ',') LIKE ('%,' || p."type" || ',%')`;

const step = (text: string, ...parameters: unknown[]): Step => ({ text, parameters });

export function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

const subscribedTo = (eventTypes: string, type: string) => eventTypes.split(',').includes(type);

/** The head of the dispatch order, locked on PostgreSQL until the transaction ends (`share`: against dispatches only). */
function* head(postgres: boolean, lock: 'update' | 'share'): Steps<number> {
  const [row] = yield step(`SELECT "seq" FROM "webhook_dispatch_head" WHERE "id" = 1${postgres ? ` FOR ${lock.toUpperCase()}` : ''}`);
  return Number(row!['seq']);
}

function* deliver(postgres: boolean, pairs: { eventId: string; endpointId: string }[], at: Date): Steps<void> {
  if (pairs.length === 0) return;
  const insert = 'INSERT INTO "webhook_deliveries" ("event_id", "endpoint_id", "state", "attempts", "due_at_ms")';
  if (postgres) {
    yield step(
      `${insert} SELECT x."event_id", x."endpoint_id", 'pending', 0, ?::bigint FROM unnest(?::text[], ?::text[]) AS x("event_id", "endpoint_id")`,
      at.getTime(),
      pairs.map((p) => p.eventId),
      pairs.map((p) => p.endpointId),
    );
    return;
  }
  for (const { eventId, endpointId } of pairs) yield step(`${insert} VALUES (?, ?, 'pending', 0, ?)`, eventId, endpointId, at.getTime());
}

/**
 * Dispatches up to `limit` events, oldest first: numbers them, gives each to the live endpoints subscribed to it,
 * then gives the held endpoints whose hold is due what they are owed. How many events it dispatched.
 */
export function* dispatchSteps(postgres: boolean, at: Date, limit: number, probeUntil: Date): Steps<number> {
  const first = yield* head(postgres, 'update');
  const no = postgres ? 'false' : '0';
  const picked = (yield step(`SELECT "id", "type" FROM "pet_events" WHERE "dispatched" = ${no} ORDER BY "at_ms", "id" LIMIT ?`, limit)) as {
    id: string;
    type: string;
  }[];
  let last = first;
  if (picked.length > 0) {
    const live = (yield step(
      'SELECT e."id", e."event_types" FROM "webhook_endpoints" e WHERE NOT e."disabled" ' +
        'AND NOT EXISTS (SELECT 1 FROM "webhook_endpoint_holds" h WHERE h."endpoint_id" = e."id") ORDER BY e."id"',
    )) as { id: string; event_types: string }[];
    const pairs = picked.flatMap((event) =>
      live.filter((e) => subscribedTo(e.event_types, event.type)).map((e) => ({ eventId: event.id, endpointId: e.id })),
    );
    yield* deliver(postgres, pairs, at);
    last = first + picked.length;
    if (postgres)
      yield step(
        `UPDATE "pet_events" p SET "dispatched" = true, "dispatch_seq" = x."seq" FROM unnest(?::text[], ?::bigint[]) AS x("id", "seq") WHERE p."id" = x."id"`,
        picked.map((e) => e.id),
        picked.map((_, i) => first + i + 1),
      );
    else
      for (const [i, event] of picked.entries())
        yield step('UPDATE "pet_events" SET "dispatched" = 1, "dispatch_seq" = ? WHERE "id" = ?', first + i + 1, event.id);
    yield step('UPDATE "webhook_dispatch_head" SET "seq" = ? WHERE "id" = 1', last);
  }
  yield* giveHeldTheirDue(postgres, last, at, limit, probeUntil);
  return picked.length;
}

type DueHold = {
  endpoint_id: string;
  position: number | string;
  failing: boolean | number;
  event_types: string;
};
type Owed = { id: string; dispatch_seq: number | string };

/**
 * Each held endpoint whose hold is due and that is owed events (or no longer failing) gets them: one (a probe,
 * awaited until `probeUntil`) while it is failing, up to `limit` once it is not; one that has all it is owed and is
 * not failing is live again. A few statements in all on PostgreSQL (the events owed read with the holds), however
 * many holds are due.
 */
function* giveHeldTheirDue(postgres: boolean, last: number, at: Date, limit: number, probeUntil: Date): Steps<void> {
  const no = postgres ? 'false' : '0';
  const dueHolds =
    'SELECT h."endpoint_id", h."position", h."failing", e."event_types" FROM "webhook_endpoint_holds" h ' +
    'JOIN "webhook_endpoints" e ON e."id" = h."endpoint_id" AND NOT e."disabled" ' +
    `WHERE h."due_at_ms" <= ? AND (h."position" < ? OR h."failing" = ${no}) ORDER BY h."due_at_ms" LIMIT ?`;
  const owedFrom = (position: string, failing: string) =>
    `SELECT p."id", p."dispatch_seq" FROM "pet_events" p WHERE p."dispatch_seq" > ${position} ` +
    `AND p."dispatch_seq" <= LEAST(?, ${position} + ${HOLD_SCAN}) AND ${SUBSCRIBED} ORDER BY p."dispatch_seq" LIMIT CASE WHEN ${failing} THEN 1 ELSE ? END`;
  const given = new Map<DueHold, Owed[]>();
  if (postgres) {
    const rows = (yield step(
      `SELECT h.*, o."id", o."dispatch_seq" FROM (${dueHolds}) h CROSS JOIN LATERAL (SELECT h."event_types") e ` +
        `LEFT JOIN LATERAL (${owedFrom('h."position"', 'h."failing"')}) o ON true`,
      at.getTime(),
      last,
      HOLDS_PER_DISPATCH,
      last,
      limit,
    )) as (DueHold & { id: string | null; dispatch_seq: string | null })[];
    const holds = new Map<string, DueHold>();
    for (const row of rows) {
      const hold = holds.get(row.endpoint_id) ?? holds.set(row.endpoint_id, row).get(row.endpoint_id)!;
      const owed = given.get(hold) ?? given.set(hold, []).get(hold)!;
      if (row.id !== null) owed.push({ id: row.id, dispatch_seq: row.dispatch_seq! });
    }
  } else {
    const holds = (yield step(dueHolds, at.getTime(), last, HOLDS_PER_DISPATCH)) as DueHold[];
    for (const hold of holds) {
      const position = Number(hold.position);
      const owed = (yield step(
        `SELECT p."id", p."dispatch_seq" FROM "pet_events" p JOIN "webhook_endpoints" e ON e."id" = ? ` +
          `WHERE p."dispatch_seq" > ? AND p."dispatch_seq" <= ? AND ${SUBSCRIBED} ORDER BY p."dispatch_seq" LIMIT ?`,
        hold.endpoint_id,
        position,
        Math.min(last, position + HOLD_SCAN),
        hold.failing ? 1 : limit,
      )) as Owed[];
      given.set(hold, owed);
    }
  }
  const deliveries: { eventId: string; endpointId: string }[] = [];
  const moved: { endpointId: string; position: number; probeUntil: number | null }[] = [];
  const live: string[] = [];
  for (const [hold, owed] of given) {
    const failing = Boolean(hold.failing);
    const take = failing ? 1 : limit;
    deliveries.push(...owed.map((event) => ({ eventId: event.id, endpointId: hold.endpoint_id })));
    const reached = owed.length === take ? Number(owed.at(-1)!.dispatch_seq) : Math.min(last, Number(hold.position) + HOLD_SCAN);
    if (!failing && reached >= last) live.push(hold.endpoint_id);
    else moved.push({ endpointId: hold.endpoint_id, position: reached, probeUntil: failing && owed.length > 0 ? probeUntil.getTime() : null });
  }
  yield* deliver(postgres, deliveries, at);
  // The probe's outcome moves the hold on; an attempt that succeeded meanwhile (not failing) keeps it due.
  const move = (position: string, probeUntil: string) =>
    `UPDATE "webhook_endpoint_holds" SET "position" = ${position}, ` +
    `"due_at_ms" = CASE WHEN "failing" THEN COALESCE(${probeUntil}, "due_at_ms") ELSE "due_at_ms" END`;
  if (postgres) {
    if (moved.length > 0)
      yield step(
        `${move('x."position"', 'x."probe_until"')} FROM unnest(?::text[], ?::bigint[], ?::bigint[]) AS x("endpoint_id", "position", "probe_until") WHERE "webhook_endpoint_holds"."endpoint_id" = x."endpoint_id"`,
        moved.map((m) => m.endpointId),
        moved.map((m) => m.position),
        moved.map((m) => m.probeUntil),
      );
    if (live.length > 0) yield step('DELETE FROM "webhook_endpoint_holds" WHERE "endpoint_id" = ANY(?::text[])', live);
    return;
  }
  for (const m of moved) yield step(`${move('?', '?')} WHERE "endpoint_id" = ?`, m.position, m.probeUntil, m.endpointId);
  for (const endpointId of live) yield step('DELETE FROM "webhook_endpoint_holds" WHERE "endpoint_id" = ?', endpointId);
}

/** Holds each enabled endpoint listed until the date given for it, failing; a new hold starts at the head of the dispatch order. */
export function* holdSteps(postgres: boolean, holds: ReadonlyMap<string, Date>): Steps<void> {
  if (holds.size === 0) return;
  const position = yield* head(postgres, 'share');
  const upsert = (rows: string, yes: string) =>
    `INSERT INTO "webhook_endpoint_holds" ("endpoint_id", "position", "failing", "due_at_ms") ${rows} ` +
    `ON CONFLICT ("endpoint_id") DO UPDATE SET "failing" = ${yes}, "due_at_ms" = excluded."due_at_ms"`;
  if (postgres) {
    yield step(
      upsert(
        'SELECT e."id", ?::bigint, true, x."until" FROM unnest(?::text[], ?::bigint[]) AS x("id", "until") JOIN "webhook_endpoints" e ON e."id" = x."id" WHERE NOT e."disabled"',
        'true',
      ),
      position,
      [...holds.keys()],
      [...holds.values()].map((until) => until.getTime()),
    );
    return;
  }
  for (const [endpointId, until] of holds)
    yield step(
      upsert('SELECT e."id", ?, 1, ? FROM "webhook_endpoints" e WHERE e."id" = ? AND NOT e."disabled"', '1'),
      position,
      until.getTime(),
      endpointId,
    );
}

/** Runs steps synchronously (SQLite, inside one transaction). */
export function runSteps<T>(steps: Steps<T>, run: (step: Step) => Record<string, unknown>[]): T {
  let next = steps.next();
  while (!next.done) next = steps.next(run(next.value));
  return next.value;
}

/** Runs steps one after another (PostgreSQL, inside one transaction). */
export async function runStepsAsync<T>(steps: Steps<T>, run: (step: Step) => Promise<Record<string, unknown>[]>): Promise<T> {
  let next = steps.next();
  while (!next.done) next = steps.next(await run(next.value));
  return next.value;
}
