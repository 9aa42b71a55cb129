import { payloadOf, type PetEvent } from '../events/PetEvent.js';
import type { Clock } from '../ports/Clock.js';
import type { DeliveryOutcome, DeliveryQueue } from '../ports/DeliveryQueue.js';
import type { EventLog } from '../ports/EventLog.js';
import type { WebhookEndpointStore } from '../ports/WebhookEndpointStore.js';
import type { DeliveryResult, WebhookResponse, WebhookSender } from '../ports/WebhookSender.js';
import { attemptIdOf, storableText, type Delivery, type DeliveryAttempt } from '../webhooks/Delivery.js';
import { DEFAULT_SHARE_OPTIONS, EndpointShares, type ShareOptions } from '../webhooks/EndpointShares.js';
import { DEFAULT_RETRY_DELAYS_MS, nextAttemptAt } from '../webhooks/RetrySchedule.js';
import { signingSecrets, type DisabledReason, type WebhookEndpoint } from '../webhooks/WebhookEndpoint.js';
import { DomainError } from '../errors/DomainError.js';
import { changeEndpoint } from './changeEndpoint.js';
import type { WebhookAudit } from './WebhookAudit.js';

export interface DeliveryOptions {
  /** The waits between attempts (DEFAULT_RETRY_DELAYS_MS); one attempt more than there are waits. */
  retryDelaysMs?: readonly number[];
  /** How long an attempt may last, connection to the answer's end; default 10 s. */
  timeoutMs?: number;
  /** Events dispatched per round at most; default 50. */
  batchSize?: number;
  /** Attempts under way in this process at most, all endpoints together; default 1000. */
  maxInFlight?: number;
  /** Each endpoint's share of the work (EndpointShares); its pauses are at most the retry schedule's waits by default. */
  shares?: ShareOptions;
  /**
   * An attempt under way for longer than this (default 1 s) holds its endpoint until the attempt's deadline, as a
   * failure does: an endpoint that hangs, or is slow, gets no deliveries of new events meanwhile.
   */
  slowAfterMs?: number;
  /** In [0, 1): the jitter's randomness. */
  random?: () => number;
}

/** What one round did: events dispatched, and the attempts it started, each settling once recorded. */
export interface DeliveryRound {
  dispatched: number;
  /** The round does not wait for them: a slow receiver holds up nothing but its own attempt. */
  started: Promise<DeliveryAttempt>[];
  /** A batch was full (events to dispatch or deliveries due): more work may be waiting. */
  more: boolean;
}

/** Sees each attempt run, from its start to its record (the server's metrics and traces). */
export interface DeliveryObserver {
  attempt(delivery: Delivery, run: () => Promise<DeliveryAttempt>): Promise<DeliveryAttempt>;
}

interface Lookups {
  endpoint(id: string): Promise<WebhookEndpoint | null>;
  event(id: string): Promise<PetEvent | null>;
}

const plainObserver: DeliveryObserver = { attempt: (_delivery, run) => run() };

/**
 * One round of the webhook worker: dispatches recorded events into deliveries, claims the due ones that the endpoints'
 * shares allow (EndpointShares: a failing or slow endpoint has one attempt at a time, after a growing pause) and
 * starts one attempt of each, signed with the endpoint's secrets, without waiting for them. The sender says what an
 * answer means: `delivered` ends a delivery, `retry` tries it again on the retry schedule, `refused` disables the
 * endpoint at once, and so does the end of the schedule (both audited, actor `system`). A claim lasts twice the
 * timeout and a second, longer than any attempt, so a delivery is claimed again only when its worker died
 * mid-attempt (at least once). Run rounds one at a time in a process: each claims within what the last left free.
 */
export class DeliverWebhooks {
  private readonly delays: readonly number[];
  private readonly timeoutMs: number;
  private readonly batchSize: number;
  private readonly maxInFlight: number;
  private readonly random: () => number;
  private readonly shares: EndpointShares;
  private readonly slowAfterMs: number;
  /** The attempts under way that have not held their endpoint yet, and when each started. */
  private readonly underway = new Map<Delivery, number>();
  /** The endpoints to hold at the next round (DeliveryQueue.hold), until when: those of failed or slow attempts. */
  private readonly toHold = new Map<string, Date>();
  /** The last holds sent: a success is recorded after them, so that the hold of a slow attempt never outlives its success. */
  private holding: Promise<unknown> = Promise.resolve();
  private inFlight = 0;

  constructor(
    private readonly ports: {
      queue: DeliveryQueue;
      endpoints: WebhookEndpointStore;
      events: EventLog;
      sender: WebhookSender;
      audit: WebhookAudit;
      clock: Clock;
    },
    options: DeliveryOptions = {},
    private readonly observer: DeliveryObserver = plainObserver,
  ) {
    this.delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.batchSize = options.batchSize ?? 50;
    this.maxInFlight = options.maxInFlight ?? 1_000;
    this.random = options.random ?? Math.random;
    this.slowAfterMs = options.slowAfterMs ?? 1_000;
    // A failing endpoint's pause never outlasts what its deliveries' own schedule waits.
    const longest = Math.max(...this.delays, 0);
    this.shares = new EndpointShares(
      options.shares ?? {
        ...DEFAULT_SHARE_OPTIONS,
        pauseMs: Math.min(DEFAULT_SHARE_OPTIONS.pauseMs, this.delays[0] ?? 0),
        maxPauseMs: Math.min(DEFAULT_SHARE_OPTIONS.maxPauseMs, longest),
      },
    );
  }

  async execute(): Promise<DeliveryRound> {
    const { queue, clock } = this.ports;
    const now = clock.now();
    const leaseUntil = new Date(now.getTime() + 2 * this.timeoutMs + 1_000);
    await this.holdFailingEndpoints(now);
    // A held endpoint's probe is out until its lease ends: its outcome holds the endpoint again, or ends the failing.
    const dispatched = await queue.dispatch(now, this.batchSize, leaseUntil);
    // Each endpoint's share bounds what one endpoint gets; a claim takes all the shares allow, so that a healthy
    // endpoint is not left for later rounds behind hundreds of others' first attempts.
    const limit = this.maxInFlight - this.inFlight;
    const slots = this.shares.at(now);
    const claimed =
      limit > 0
        ? await queue.claim({
            now,
            leaseUntil,
            limit,
            perEndpoint: this.shares.perEndpoint,
            slots,
          })
        : [];
    // Read once per round, each in one read: an event goes to several endpoints, an endpoint gets several events.
    const read = <T extends { id: string }>(ids: string[], find: (ids: string[]) => Promise<T[]>) =>
      ids.length === 0 ? Promise.resolve(new Map<string, T>()) : find([...new Set(ids)]).then((found) => new Map(found.map((x) => [x.id, x])));
    const endpoints = read(
      claimed.map((d) => d.endpointId),
      (ids) => this.ports.endpoints.findByIds(ids),
    );
    const events = read(
      claimed.map((d) => d.eventId),
      (ids) => this.ports.events.findEvents(ids),
    );
    const lookups: Lookups = {
      endpoint: async (id) => (await endpoints).get(id) ?? null,
      event: async (id) => (await events).get(id) ?? null,
    };
    const started = claimed.map((delivery) => {
      this.inFlight += 1;
      this.underway.set(delivery, now.getTime());
      this.shares.started(delivery.endpointId);
      let result: DeliveryResult | null = null;
      return this.observer
        .attempt(delivery, async () => {
          const made = await this.attempt(delivery, lookups);
          result = made.result;
          return made.attempt;
        })
        .finally(() => {
          this.inFlight -= 1;
          this.underway.delete(delivery);
          const pausedUntil = this.shares.ended(delivery.endpointId, result, this.ports.clock.now());
          // A failing endpoint gets no deliveries of new events meanwhile: it costs nothing per event however many fail.
          if (pausedUntil) this.toHold.set(delivery.endpointId, pausedUntil);
          else if (result === 'delivered') this.toHold.delete(delivery.endpointId);
        });
    });
    return { dispatched, started, more: dispatched === this.batchSize || claimed.length === limit };
  }

  /**
   * Holds, all at once before the round dispatches, the endpoints whose attempts failed since the last round (until
   * their pause ends) and those of attempts under way for longer than `slowAfterMs` (until the attempt's deadline).
   */
  private async holdFailingEndpoints(now: Date): Promise<void> {
    for (const [delivery, startedAt] of this.underway) {
      if (now.getTime() - startedAt < this.slowAfterMs) continue;
      this.underway.delete(delivery);
      if (!this.toHold.has(delivery.endpointId)) this.toHold.set(delivery.endpointId, new Date(startedAt + this.timeoutMs));
    }
    if (this.toHold.size === 0) return;
    const holds = new Map(this.toHold);
    this.toHold.clear();
    this.holding = this.ports.queue.hold(holds);
    await this.holding;
  }

  private async attempt(delivery: Delivery, lookups: Lookups): Promise<{ attempt: DeliveryAttempt; result: DeliveryResult | null }> {
    const { queue, clock, sender } = this.ports;
    const [endpoint, event] = await Promise.all([lookups.endpoint(delivery.endpointId), lookups.event(delivery.eventId)]);
    const at = clock.now();
    const number = delivery.attempts + 1;
    let response: WebhookResponse | null = null;
    let error: string | null = null;
    if (!endpoint || !event) error = endpoint ? 'the event no longer exists' : 'the endpoint was deleted';
    else if (endpoint.disabled) error = 'the endpoint is disabled';
    else {
      response = await sender.send({
        url: endpoint.url,
        eventId: event.id,
        sentAt: at,
        body: JSON.stringify(payloadOf(event)),
        secrets: signingSecrets(endpoint, at),
        timeoutMs: this.timeoutMs,
      });
      error = response.result === 'delivered' ? null : (response.error ?? 'the receiver did not take it');
    }
    const ended = clock.now();
    const result = response?.result ?? null;
    const attempt: DeliveryAttempt = {
      id: attemptIdOf(delivery.id, number),
      deliveryId: delivery.id,
      eventId: delivery.eventId,
      endpointId: delivery.endpointId,
      attempt: number,
      at,
      statusCode: response?.statusCode ?? null,
      durationMs: Math.max(0, ended.getTime() - at.getTime()),
      error: error === null ? null : storableText(error),
      responseBody: response?.body == null ? null : storableText(response.body),
      succeeded: result === 'delivered',
    };
    const retryAt = result === 'retry' ? nextAttemptAt(ended, number, this.delays, this.random) : null;
    const outcome: DeliveryOutcome =
      result === 'delivered' ? { state: 'succeeded' } : retryAt ? { state: 'pending', nextAttemptAt: retryAt } : { state: 'failed' };
    await this.holding.catch(() => {});
    await queue.record(attempt, outcome);
    if (endpoint && result !== null && result !== 'delivered' && !retryAt) await this.disable(endpoint, result === 'refused' ? 'gone' : 'failing');
    return { attempt, result };
  }

  /** Disables the endpoint (unless it was disabled, or deleted, meanwhile), with the compare-and-set of any change. */
  private async disable(endpoint: WebhookEndpoint, reason: DisabledReason): Promise<void> {
    let alreadyDisabled = false;
    const changed = await changeEndpoint(this.ports.endpoints, endpoint.id, (current) => {
      alreadyDisabled = current.disabled;
      return { ...current, disabled: true, disabledReason: current.disabled ? current.disabledReason : reason };
    }).catch((error: unknown) => {
      if (DomainError.is(error) && error.code === 'not_found') return null;
      throw error;
    });
    if (changed && !alreadyDisabled) {
      await this.ports.audit.record(this.ports.clock.now(), 'system', 'webhook.disabled', changed.before, changed.after);
      await this.ports.queue.drop(endpoint.id);
    }
  }
}
