/**
 * Which URLs webhooks may be sent to. An adapter resolves the host and refuses loopback, private, link-local and
 * metadata addresses and plain http, unless its operator allowed them; the sender checks again at each delivery.
 */
export interface WebhookTargets {
  /** Why `url` may not receive webhooks, or null when it may. */
  problem(url: string): Promise<string | null>;
}
