/** One webhook request: the event's id (`webhook-id`), when it is sent (`webhook-timestamp`), the body and the secrets that sign it. */
export interface WebhookRequest {
  url: string;
  eventId: string;
  sentAt: Date;
  body: string;
  secrets: readonly string[];
  timeoutMs: number;
}

/** What came back: the status and the start of the body, or why nothing did. */
export interface WebhookResponse {
  statusCode: number | null;
  body: string | null;
  error: string | null;
}

/** Signs and POSTs one webhook (Standard Webhooks), following no redirect; never throws for a receiver's failure. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}
