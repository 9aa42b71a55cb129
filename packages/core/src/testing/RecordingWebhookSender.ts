import type { WebhookRequest, WebhookResponse, WebhookSender } from '../ports/WebhookSender.js';

/** An answer with `statusCode`, read as the HTTP sender reads it: 2xx delivered, 410 refused, anything else retry. */
export function answerOf(statusCode: number, body = ''): WebhookResponse {
  const delivered = statusCode >= 200 && statusCode < 300;
  return {
    result: delivered ? 'delivered' : statusCode === 410 ? 'refused' : 'retry',
    statusCode,
    body,
    error: delivered ? null : `the receiver answered ${statusCode}`,
  };
}

/** Records every request and answers what `answer` says (default `200`). */
export class RecordingWebhookSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  answer: (request: WebhookRequest) => WebhookResponse | Promise<WebhookResponse> = () => answerOf(200, 'ok');

  async send(request: WebhookRequest): Promise<WebhookResponse> {
    this.requests.push(request);
    return this.answer(request);
  }
}
