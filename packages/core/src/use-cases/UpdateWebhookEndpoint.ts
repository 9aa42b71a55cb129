import type { AuditActor } from '../access/AuditEvent.js';
import type { Clock } from '../ports/Clock.js';
import type { DeliveryQueue } from '../ports/DeliveryQueue.js';
import type { WebhookEndpointStore } from '../ports/WebhookEndpointStore.js';
import type { WebhookTargets } from '../ports/WebhookTargets.js';
import { parseWebhookSettings } from '../webhooks/parseWebhookSettings.js';
import { viewOfEndpoint, type WebhookEndpoint, type WebhookEndpointView } from '../webhooks/WebhookEndpoint.js';
import { changeEndpoint } from './changeEndpoint.js';
import { checkTarget } from './checkTarget.js';
import { findEndpoint } from './findEndpoint.js';
import type { WebhookAudit } from './WebhookAudit.js';

/**
 * Changes an endpoint's `url` (a safe target), `eventTypes`, `description` or `disabled` (enabling it again clears why
 * it was disabled and starts it held, as a new endpoint is; disabling it ends its pending deliveries). Audited as `webhook.updated` with each changed field.
 */
export class UpdateWebhookEndpoint {
  constructor(
    private readonly store: WebhookEndpointStore,
    private readonly targets: WebhookTargets,
    private readonly deliveries: DeliveryQueue,
    private readonly audit: WebhookAudit,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, input: unknown, actor: AuditActor): Promise<WebhookEndpointView> {
    await findEndpoint(this.store, id);
    const settings = parseWebhookSettings(input, 'update');
    if (settings.url !== undefined) await checkTarget(this.targets, settings.url);
    const { before, after } = await changeEndpoint(this.store, id, (current): WebhookEndpoint => {
      const disabled = settings.disabled ?? current.disabled;
      const disabledReason = !disabled ? null : settings.disabled === true && !current.disabled ? 'manual' : current.disabledReason;
      return { ...current, ...settings, disabled, disabledReason };
    });
    await this.audit.record(this.clock.now(), actor, 'webhook.updated', before, after);
    if (after.disabled && !before.disabled) await this.deliveries.drop(id);
    if (!after.disabled && before.disabled) await this.deliveries.hold(new Map([[id, this.clock.now()]]));
    return viewOfEndpoint(after);
  }
}
