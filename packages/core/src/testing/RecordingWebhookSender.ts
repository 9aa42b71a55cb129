import type { WebhookRequest, WebhookResponse, WebhookSender } from '../ports/WebhookSender.js';

/** Records every request and answers what `answer` says (default `200`). */
export class RecordingWebhookSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  answer: (request: WebhookRequest) => WebhookResponse = () => ({ statusCode: 200, body: 'ok', error: null });

  async send(request: WebhookRequest): Promise<WebhookResponse> {
    this.requests.push(request);
    return this.answer(request);
  }
}
