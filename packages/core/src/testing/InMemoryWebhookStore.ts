import type { EventLog } from '../ports/EventLog.js';
import type { AttemptListRequest, ClaimRequest, DeliveryOutcome, DeliveryQueue } from '../ports/DeliveryQueue.js';
import type { EndpointPosition, WebhookEndpointStore } from '../ports/WebhookEndpointStore.js';
import type { PurgedHistory, WebhookHistory } from '../ports/WebhookHistory.js';
import type { Delivery, DeliveryAttempt, LoggedAttempt } from '../webhooks/Delivery.js';
import type { PetEventType } from '../events/PetEvent.js';
import type { WebhookEndpoint } from '../webhooks/WebhookEndpoint.js';

interface StoredDelivery extends Delivery {
  state: 'pending' | 'succeeded' | 'failed';
  dueAt: number;
  /** Queued by `enqueue` (a resend), not by `dispatch`. */
  replay: boolean;
}

/** A held endpoint (DeliveryQueue.hold): `position` is the dispatch number of the last event it was given. */
interface Hold {
  position: number;
  failing: boolean;
  dueAt: number;
}

const positionKey = (p: { at: Date; id: string }) => `${p.at.getTime().toString().padStart(15, '0')}${p.id}`;

/** An event log whose events the purge can delete (InMemoryPetRepository). */
export type ForgettingEventLog = EventLog & { forgetEvents(ids: ReadonlySet<string>): void };

/**
 * Endpoints, deliveries and their history in memory, dispatching the events of `events` and purging them (one
 * process: every step is atomic).
 */
export class InMemoryWebhookStore implements WebhookEndpointStore, DeliveryQueue, WebhookHistory {
  private readonly endpoints = new Map<string, WebhookEndpoint>();
  private deliveries: StoredDelivery[] = [];
  /** Each attempt with the retry its outcome scheduled (epoch ms), if any. */
  private attempts: (DeliveryAttempt & { retryAt: number | null })[] = [];
  private readonly dispatched = new Set<string>();
  /** The dispatched events in the order they were dispatched: the first has number 1. */
  private readonly dispatchOrder: { id: string; type: PetEventType }[] = [];
  private readonly holds = new Map<string, Hold>();
  private lastDeliveryId = 0;

  constructor(private readonly events: ForgettingEventLog) {}

  async create(endpoint: WebhookEndpoint): Promise<void> {
    this.endpoints.set(endpoint.id, structuredClone(endpoint));
  }

  async findById(id: string): Promise<WebhookEndpoint | null> {
    const endpoint = this.endpoints.get(id);
    return endpoint ? structuredClone(endpoint) : null;
  }

  async findByIds(ids: readonly string[]): Promise<WebhookEndpoint[]> {
    return ids.flatMap((id) => {
      const endpoint = this.endpoints.get(id);
      return endpoint ? [structuredClone(endpoint)] : [];
    });
  }

  async list({ after, limit }: { after: EndpointPosition | null; limit: number }): Promise<WebhookEndpoint[]> {
    return [...this.endpoints.values()]
      .map((e) => ({ e, key: positionKey({ at: e.createdAt, id: e.id }) }))
      .filter(({ key }) => after === null || key > positionKey(after))
      .sort((a, b) => (a.key < b.key ? -1 : 1))
      .slice(0, limit)
      .map(({ e }) => structuredClone(e));
  }

  async save(endpoint: WebhookEndpoint): Promise<boolean> {
    if (this.endpoints.get(endpoint.id)?.version !== endpoint.version) return false;
    this.endpoints.set(endpoint.id, { ...structuredClone(endpoint), version: endpoint.version + 1 });
    return true;
  }

  async delete(id: string): Promise<boolean> {
    await this.drop(id);
    return this.endpoints.delete(id);
  }

  async drop(endpointId: string): Promise<number> {
    this.holds.delete(endpointId);
    const pending = this.deliveries.filter((d) => d.endpointId === endpointId && d.state === 'pending');
    for (const delivery of pending) delivery.state = 'failed';
    return pending.length;
  }

  async dispatch(at: Date, limit: number, probeUntil: Date): Promise<number> {
    const all = await this.events.listEvents({ before: null, limit: Number.MAX_SAFE_INTEGER });
    const waiting = all
      .filter((e) => !this.dispatched.has(e.id))
      .reverse()
      .slice(0, limit);
    for (const event of waiting) {
      this.dispatched.add(event.id);
      this.dispatchOrder.push({ id: event.id, type: event.type });
      for (const endpoint of this.endpoints.values()) {
        if (!endpoint.disabled && endpoint.eventTypes.includes(event.type) && !this.holds.has(endpoint.id)) this.add(event.id, endpoint.id, at);
      }
    }
    this.giveHeldTheirDue(at, limit, probeUntil);
    return waiting.length;
  }

  async hold(holds: ReadonlyMap<string, Date>): Promise<void> {
    for (const [endpointId, until] of holds) {
      const endpoint = this.endpoints.get(endpointId);
      if (!endpoint || endpoint.disabled) continue;
      const hold = this.holds.get(endpointId) ?? { position: this.dispatchOrder.length, failing: true, dueAt: 0 };
      this.holds.set(endpointId, { ...hold, failing: true, dueAt: until.getTime() });
    }
  }

  private giveHeldTheirDue(at: Date, limit: number, probeUntil: Date): void {
    const head = this.dispatchOrder.length;
    for (const [endpointId, hold] of this.holds) {
      const endpoint = this.endpoints.get(endpointId);
      if (!endpoint || endpoint.disabled || hold.dueAt > at.getTime()) continue;
      const owed = this.dispatchOrder
        .map((event, index) => ({ ...event, number: index + 1 }))
        .filter((event) => event.number > hold.position && endpoint.eventTypes.includes(event.type))
        .slice(0, hold.failing ? 1 : limit);
      for (const event of owed) this.add(event.id, endpointId, at);
      const full = owed.length === (hold.failing ? 1 : limit);
      hold.position = full ? owed.at(-1)!.number : head;
      if (hold.failing && owed.length > 0) hold.dueAt = probeUntil.getTime();
      if (!hold.failing && hold.position === head) this.holds.delete(endpointId);
    }
  }

  async enqueue(eventId: string, endpointId: string, at: Date): Promise<Delivery | null> {
    if (this.deliveries.some((d) => d.replay && d.eventId === eventId && d.endpointId === endpointId && d.state === 'pending')) return null;
    const { id, attempts } = this.add(eventId, endpointId, at, true);
    return { id, eventId, endpointId, attempts };
  }

  async claim({ now, leaseUntil, limit, perEndpoint, slots }: ClaimRequest): Promise<Delivery[]> {
    const turns = new Map<string, number>();
    const claimed = this.deliveries
      .filter((d) => d.state === 'pending' && d.dueAt <= now.getTime())
      .sort((a, b) => a.dueAt - b.dueAt || a.id - b.id)
      .map((delivery) => {
        const turn = (turns.get(delivery.endpointId) ?? 0) + 1;
        turns.set(delivery.endpointId, turn);
        return { delivery, turn };
      })
      .filter(({ delivery, turn }) => turn <= (slots.get(delivery.endpointId) ?? perEndpoint))
      .sort((a, b) => a.turn - b.turn || a.delivery.dueAt - b.delivery.dueAt || a.delivery.id - b.delivery.id)
      .slice(0, limit)
      .map(({ delivery }) => delivery)
      .sort((a, b) => a.id - b.id);
    for (const delivery of claimed) delivery.dueAt = leaseUntil.getTime();
    return claimed.map(({ id, eventId, endpointId, attempts }) => ({ id, eventId, endpointId, attempts }));
  }

  async record(attempt: DeliveryAttempt, outcome: DeliveryOutcome): Promise<void> {
    if (this.attempts.some((a) => a.id === attempt.id)) return;
    this.attempts.push({ ...attempt, retryAt: outcome.state === 'pending' ? outcome.nextAttemptAt.getTime() : null });
    const hold = this.holds.get(attempt.endpointId);
    if (attempt.succeeded && hold) Object.assign(hold, { failing: false, dueAt: 0 });
    const delivery = this.deliveries.find((d) => d.id === attempt.deliveryId);
    if (!delivery || delivery.attempts >= attempt.attempt) return;
    delivery.attempts = attempt.attempt;
    delivery.state = outcome.state;
    if (outcome.state === 'pending') delivery.dueAt = outcome.nextAttemptAt.getTime();
  }

  async listAttempts({ endpointId, before, limit }: AttemptListRequest): Promise<LoggedAttempt[]> {
    return this.attempts
      .filter((a) => a.endpointId === endpointId && (before === null || positionKey(a) < positionKey(before)))
      .sort((a, b) => (positionKey(a) < positionKey(b) ? 1 : -1))
      .slice(0, limit)
      .map(({ retryAt, ...attempt }) => {
        const delivery = this.deliveries.find((d) => d.id === attempt.deliveryId);
        const waiting = retryAt !== null && delivery?.state === 'pending' && delivery.attempts === attempt.attempt;
        return { ...attempt, nextAttemptAt: waiting ? new Date(retryAt) : null };
      });
  }

  async backlog(): Promise<{ pending: number; undispatched: number; oldestDueAt: Date | null }> {
    const pending = this.deliveries.filter((d) => d.state === 'pending');
    const undispatched = (await this.events.listEvents({ before: null, limit: Number.MAX_SAFE_INTEGER })).filter((e) => !this.dispatched.has(e.id));
    const due = [...pending.map((d) => d.dueAt), ...undispatched.map((e) => e.at.getTime())];
    return { pending: pending.length, undispatched: undispatched.length, oldestDueAt: due.length > 0 ? new Date(Math.min(...due)) : null };
  }

  async purge(before: Date, limit: number): Promise<PurgedHistory> {
    const cutoff = before.getTime();
    const oldAttempts = new Set(this.attempts.filter((a) => a.at.getTime() < cutoff).slice(0, limit));
    this.attempts = this.attempts.filter((a) => !oldAttempts.has(a));
    const ended = new Set(this.deliveries.filter((d) => d.state !== 'pending' && d.dueAt < cutoff).slice(0, limit));
    this.deliveries = this.deliveries.filter((d) => !ended.has(d));
    const owed = new Set(this.deliveries.filter((d) => d.state === 'pending').map((d) => d.eventId));
    const older = await this.events.listEvents({ before: { at: before, id: '' }, limit: Number.MAX_SAFE_INTEGER });
    const gone = new Set(
      older
        .reverse()
        .filter((e) => this.dispatched.has(e.id) && !owed.has(e.id))
        .slice(0, limit)
        .map((e) => e.id),
    );
    this.events.forgetEvents(gone);
    for (const id of gone) this.dispatched.delete(id);
    return { events: gone.size, deliveries: ended.size, attempts: oldAttempts.size };
  }

  private add(eventId: string, endpointId: string, at: Date, replay = false): StoredDelivery {
    const delivery: StoredDelivery = { id: ++this.lastDeliveryId, eventId, endpointId, attempts: 0, state: 'pending', dueAt: at.getTime(), replay };
    this.deliveries.push(delivery);
    return delivery;
  }
}
