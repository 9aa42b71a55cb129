/** One webhook request: the event's id (`webhook-id`), when it is sent (`webhook-timestamp`), the body and the secrets that sign it. */
export interface WebhookRequest {
  url: string;
  eventId: string;
  sentAt: Date;
  body: string;
  secrets: readonly string[];
  /** The whole attempt, from the connection to the answer's end. */
  timeoutMs: number;
}

/**
 * What a delivery attempt came to: `delivered` (the receiver took it), `refused` (the receiver will never take
 * anything again: the endpoint is disabled), or `retry` (anything else: try again later).
 */
export type DeliveryResult = 'delivered' | 'refused' | 'retry';

/** What came back: the result the sender decided, the status and the start of the body, or why nothing did. */
export interface WebhookResponse {
  result: DeliveryResult;
  statusCode: number | null;
  body: string | null;
  error: string | null;
}

/**
 * Signs and POSTs one webhook (Standard Webhooks), following no redirect, and says what the answer means for the
 * delivery; never throws for a receiver's failure, and settles by `timeoutMs` whatever the receiver does.
 */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}
