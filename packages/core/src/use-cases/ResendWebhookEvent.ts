import { ResendPendingError } from '../errors/ResendPendingError.js';
import { NotFoundError } from '../errors/NotFoundError.js';
import { ValidationError } from '../errors/ValidationError.js';
import { isEventId } from '../events/eventId.js';
import type { Clock } from '../ports/Clock.js';
import type { DeliveryQueue } from '../ports/DeliveryQueue.js';
import type { EventLog } from '../ports/EventLog.js';
import type { WebhookEndpointStore } from '../ports/WebhookEndpointStore.js';
import type { Delivery } from '../webhooks/Delivery.js';
import { findEndpoint } from './findEndpoint.js';

/**
 * Sends one recorded event to one endpoint again, now, with the same `webhook-id` (whatever event types the endpoint
 * subscribes to). A disabled endpoint must be enabled first. One resend of an event to an endpoint is pending at a
 * time: another while it is pending is refused, so a burst of resends sends one copy (beside the event's first
 * delivery, which may still be retrying).
 */
export class ResendWebhookEvent {
  constructor(
    private readonly store: WebhookEndpointStore,
    private readonly events: EventLog,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
  ) {}

  async execute(endpointId: string, eventId: string): Promise<Delivery> {
    const endpoint = await findEndpoint(this.store, endpointId);
    const [event] = isEventId(eventId) ? await this.events.findEvents([eventId]) : [];
    if (!event) throw new NotFoundError(`No event with id ${eventId}.`);
    if (endpoint.disabled) throw ValidationError.of('endpointId', 'The endpoint is disabled: enable it (disabled: false) before resending to it');
    const delivery = await this.queue.enqueue(event.id, endpoint.id, this.clock.now());
    if (!delivery) throw new ResendPendingError(event.id, endpoint.id);
    return delivery;
  }
}
