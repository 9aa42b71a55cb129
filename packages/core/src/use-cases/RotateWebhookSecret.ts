import type { AuditActor } from '../access/AuditEvent.js';
import type { Clock } from '../ports/Clock.js';
import type { WebhookEndpointStore } from '../ports/WebhookEndpointStore.js';
import {
  generateWebhookSecret,
  viewOfEndpoint,
  WEBHOOK_SECRET_GRACE_SECONDS,
  type WebhookEndpoint,
  type WebhookEndpointView,
} from '../webhooks/WebhookEndpoint.js';
import { changeEndpoint } from './changeEndpoint.js';
import type { WebhookAudit } from './WebhookAudit.js';

/**
 * A new signing secret for an endpoint, answered once. For WEBHOOK_SECRET_GRACE_SECONDS (24 hours) deliveries carry
 * a signature with each secret, so a receiver can switch at its own pace; a secret replaced earlier stops signing at
 * once. Audited as `webhook.secret_rotated` (never a secret). Rotations of one endpoint that race each other are one
 * rotation: the first to be stored wins, and the others answer the secret it stored (a rotation decided afresh after
 * a lost race would replace it, and the secret already answered would stop signing within milliseconds).
 */
export class RotateWebhookSecret {
  constructor(
    private readonly store: WebhookEndpointStore,
    private readonly audit: WebhookAudit,
    private readonly clock: Clock,
  ) {}

  async execute(id: string, actor: AuditActor): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
    const now = this.clock.now();
    let first: string | undefined;
    const { before, after } = await changeEndpoint(this.store, id, (current): WebhookEndpoint => {
      first ??= current.secret;
      // Another rotation was stored first: its secret is the answer.
      if (current.secret !== first) return current;
      return {
        ...current,
        secret: generateWebhookSecret(),
        previousSecret: current.secret,
        previousSecretExpiresAt: new Date(now.getTime() + WEBHOOK_SECRET_GRACE_SECONDS * 1000),
      };
    });
    if (before !== after) await this.audit.record(now, actor, 'webhook.secret_rotated', before, after);
    return { endpoint: viewOfEndpoint(after), secret: after.secret };
  }
}
