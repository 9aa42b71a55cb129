import { payloadOf, type PetEvent } from '../events/PetEvent.js';
import type { Clock } from '../ports/Clock.js';
import type { DeliveryOutcome, DeliveryQueue } from '../ports/DeliveryQueue.js';
import type { EventLog } from '../ports/EventLog.js';
import type { WebhookEndpointStore } from '../ports/WebhookEndpointStore.js';
import type { WebhookResponse, WebhookSender } from '../ports/WebhookSender.js';
import { attemptIdOf, RESPONSE_BODY_MAX, type Delivery, type DeliveryAttempt } from '../webhooks/Delivery.js';
import { DEFAULT_RETRY_DELAYS_MS, nextAttemptAt } from '../webhooks/RetrySchedule.js';
import { signingSecrets, type DisabledReason, type WebhookEndpoint } from '../webhooks/WebhookEndpoint.js';
import { DomainError } from '../errors/DomainError.js';
import { changeEndpoint } from './changeEndpoint.js';
import type { WebhookAudit } from './WebhookAudit.js';

export interface DeliveryOptions {
  /** The waits between attempts (DEFAULT_RETRY_DELAYS_MS); one attempt more than there are waits. */
  retryDelaysMs?: readonly number[];
  /** How long a receiver has to answer; default 10 s. */
  timeoutMs?: number;
  /** Deliveries claimed per round; default 50. */
  batchSize?: number;
  /** In [0, 1): the jitter's randomness. */
  random?: () => number;
}

/** What one round did: events dispatched, and the attempts made, by outcome. */
export interface DeliveryRound {
  dispatched: number;
  attempts: DeliveryAttempt[];
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

const succeeded = (response: WebhookResponse) => response.statusCode !== null && response.statusCode >= 200 && response.statusCode < 300;

/**
 * One round of the webhook worker: dispatches recorded events into deliveries, claims the due ones and makes one
 * attempt of each (in parallel), signed with the endpoint's secrets. A 2xx ends a delivery; anything else, or no
 * answer in time, is tried again on the retry schedule; `410 Gone` disables the endpoint at once, and so does the end
 * of the schedule (both audited, actor `system`). A claim lasts twice the timeout and a second, so a delivery whose
 * worker died mid-attempt is attempted again, by any instance (at least once).
 */
export class DeliverWebhooks {
  private readonly delays: readonly number[];
  private readonly timeoutMs: number;
  private readonly batchSize: number;
  private readonly random: () => number;

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
    this.random = options.random ?? Math.random;
  }

  async execute(): Promise<DeliveryRound> {
    const { queue, clock } = this.ports;
    const now = clock.now();
    const dispatched = await queue.dispatch(now, this.batchSize);
    const claimed = await queue.claim(now, new Date(now.getTime() + 2 * this.timeoutMs + 1_000), this.batchSize);
    // Read once per round: an event goes to several endpoints, an endpoint gets several events; the events in one read.
    const endpoints = new Map<string, Promise<WebhookEndpoint | null>>();
    const events = claimed.length === 0 ? Promise.resolve([]) : this.ports.events.findEvents([...new Set(claimed.map((d) => d.eventId))]);
    const lookups: Lookups = {
      endpoint: (id) => endpoints.get(id) ?? endpoints.set(id, this.ports.endpoints.findById(id)).get(id)!,
      event: async (id) => (await events).find((event) => event.id === id) ?? null,
    };
    const attempts = await Promise.all(claimed.map((delivery) => this.observer.attempt(delivery, () => this.attempt(delivery, lookups))));
    return { dispatched, attempts, more: dispatched === this.batchSize || claimed.length === this.batchSize };
  }

  private async attempt(delivery: Delivery, lookups: Lookups): Promise<DeliveryAttempt> {
    const { queue, clock, sender } = this.ports;
    const [endpoint, event] = await Promise.all([lookups.endpoint(delivery.endpointId), lookups.event(delivery.eventId)]);
    const at = clock.now();
    const number = delivery.attempts + 1;
    let response: WebhookResponse;
    if (!endpoint || !event) response = { statusCode: null, body: null, error: endpoint ? 'the event no longer exists' : 'the endpoint was deleted' };
    else if (endpoint.disabled) response = { statusCode: null, body: null, error: 'the endpoint is disabled' };
    else {
      const body = JSON.stringify(payloadOf(event));
      response = await sender.send({
        url: endpoint.url,
        eventId: event.id,
        sentAt: at,
        body,
        secrets: signingSecrets(endpoint, at),
        timeoutMs: this.timeoutMs,
      });
    }
    const ended = clock.now();
    const ok = succeeded(response);
    const attempt: DeliveryAttempt = {
      id: attemptIdOf(delivery.id, number),
      deliveryId: delivery.id,
      eventId: delivery.eventId,
      endpointId: delivery.endpointId,
      attempt: number,
      at,
      statusCode: response.statusCode,
      durationMs: Math.max(0, ended.getTime() - at.getTime()),
      error: ok ? null : (response.error ?? `the receiver answered ${response.statusCode}`),
      responseBody: response.body === null ? null : response.body.slice(0, RESPONSE_BODY_MAX),
      succeeded: ok,
    };
    const usable = endpoint !== null && event !== null && !endpoint.disabled;
    const retryAt = ok || !usable || response.statusCode === 410 ? null : nextAttemptAt(ended, number, this.delays, this.random);
    const outcome: DeliveryOutcome = ok ? { state: 'succeeded' } : retryAt ? { state: 'pending', nextAttemptAt: retryAt } : { state: 'failed' };
    await queue.record(attempt, outcome);
    if (usable && !ok && !retryAt) await this.disable(endpoint, response.statusCode === 410 ? 'gone' : 'failing');
    return attempt;
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
    if (changed && !alreadyDisabled)
      await this.ports.audit.record(this.ports.clock.now(), 'system', 'webhook.disabled', changed.before, changed.after);
  }
}
