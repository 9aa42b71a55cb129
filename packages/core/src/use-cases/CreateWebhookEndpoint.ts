import type { AuditActor } from '../access/AuditEvent.js';
import type { Clock } from '../ports/Clock.js';
import type { DeliveryQueue } from '../ports/DeliveryQueue.js';
import type { WebhookEndpointStore } from '../ports/WebhookEndpointStore.js';
import type { WebhookTargets } from '../ports/WebhookTargets.js';
import { parseWebhookSettings } from '../webhooks/parseWebhookSettings.js';
import {
  generateEndpointId,
  generateWebhookSecret,
  viewOfEndpoint,
  type WebhookEndpoint,
  type WebhookEndpointView,
} from '../webhooks/WebhookEndpoint.js';
import { checkTarget } from './checkTarget.js';
import type { WebhookAudit } from './WebhookAudit.js';

/**
 * Adds a webhook endpoint (`url`, `eventTypes`, `description`) and answers its signing secret: the only time it is
 * shown. The URL must be a safe target. Audited as `webhook.created`. A new endpoint starts held (DeliveryQueue.hold):
 * its first delivery is a probe, and it gets each event as it is dispatched once one attempt has succeeded, so that
 * endpoints that never answer cost nothing per event from the start.
 */
export class CreateWebhookEndpoint {
  constructor(
    private readonly store: WebhookEndpointStore,
    private readonly targets: WebhookTargets,
    private readonly deliveries: DeliveryQueue,
    private readonly audit: WebhookAudit,
    private readonly clock: Clock,
  ) {}

  async execute(input: unknown, actor: AuditActor): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
    const settings = parseWebhookSettings(input, 'create');
    await checkTarget(this.targets, settings.url!);
    const now = this.clock.now();
    const endpoint: WebhookEndpoint = {
      id: generateEndpointId(),
      url: settings.url!,
      eventTypes: settings.eventTypes!,
      description: settings.description ?? '',
      disabled: false,
      disabledReason: null,
      createdAt: now,
      secret: generateWebhookSecret(),
      previousSecret: null,
      previousSecretExpiresAt: null,
      version: 1,
    };
    await this.store.create(endpoint);
    await this.deliveries.hold(new Map([[endpoint.id, now]]));
    await this.audit.record(now, actor, 'webhook.created', null, endpoint);
    return { endpoint: viewOfEndpoint(endpoint), secret: endpoint.secret };
  }
}
