import type { WebhookTargets } from '../ports/WebhookTargets.js';

/** Allows every URL but those refused with `refuse(url, why)`. */
export class FakeWebhookTargets implements WebhookTargets {
  private readonly refused = new Map<string, string>();

  refuse(url: string, why: string): void {
    this.refused.set(url, why);
  }

  async problem(url: string): Promise<string | null> {
    return this.refused.get(url) ?? null;
  }
}
