import { parsePageQuery } from '../access/parsePageQuery.js';
import { encodePositionCursor, type Position } from '../access/PositionCursor.js';
import { ValidationError } from '../errors/ValidationError.js';
import { payloadOf, type PetEventPayload } from '../events/PetEvent.js';
import type { EventLog } from '../ports/EventLog.js';

/** An event as the admin API lists it: its id and the payload a webhook carries. */
export type EventView = { id: string } & PetEventPayload;

const LISTING = 'events';

/** The recorded events, newest first, a page at a time (`limit`, `cursor`). */
export class ListEvents {
  constructor(private readonly events: EventLog) {}

  /** The cursor of the page after the event at `position`: what `nextCursor` is (and a documented example). */
  static cursorAt(position: Position): string {
    return encodePositionCursor(LISTING, position);
  }

  async execute(input: Readonly<Record<string, unknown>> = {}): Promise<{ events: EventView[]; nextCursor: string | null }> {
    const { query, problems } = parsePageQuery(input, LISTING);
    if (problems.length > 0) throw new ValidationError(problems);
    const found = await this.events.listEvents({ before: query.after, limit: query.limit + 1 });
    const page = found.slice(0, query.limit);
    const last = page.at(-1);
    return {
      events: page.map((event) => ({ id: event.id, ...payloadOf(event) })),
      nextCursor: found.length > query.limit && last ? ListEvents.cursorAt(last) : null,
    };
  }
}
