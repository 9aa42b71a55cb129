import type { AuditActor } from '../access/AuditEvent.js';
import type { Clock } from '../ports/Clock.js';
import type { WebhookEndpointStore } from '../ports/WebhookEndpointStore.js';
import { findEndpoint } from './findEndpoint.js';
import type { WebhookAudit } from './WebhookAudit.js';

/** Deletes an endpoint; its pending deliveries are not attempted any more. Audited as `webhook.deleted`. */
export class DeleteWebhookEndpoint {
  constructor(
    private readonly store: WebhookEndpointStore,
    private readonly audit: WebhookAudit,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, actor: AuditActor): Promise<void> {
    const endpoint = await findEndpoint(this.store, id);
    if (await this.store.delete(endpoint.id)) await this.audit.record(this.clock.now(), actor, 'webhook.deleted', endpoint, endpoint);
  }
}
