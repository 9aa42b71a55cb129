import type { WebhookRequest, WebhookResponse, WebhookSender } from '../ports/WebhookSender.js';

/** Answers a test sender gives, by the result the HTTP sender would decide. */
export const answers = {
  delivered: (statusCode = 200, body = 'ok'): WebhookResponse => ({ result: 'delivered', statusCode, body, error: null }),
  refused: (statusCode = 410, body = ''): WebhookResponse => ({ result: 'refused', statusCode, body, error: `the receiver answered ${statusCode}` }),
  retry: (statusCode: number, body = ''): WebhookResponse => ({ result: 'retry', statusCode, body, error: `the receiver answered ${statusCode}` }),
};

/** Records every request and answers what `answer` says (default `200`). */
export class RecordingWebhookSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  answer: (request: WebhookRequest) => WebhookResponse | Promise<WebhookResponse> = () => answers.delivered();

  async send(request: WebhookRequest): Promise<WebhookResponse> {
    this.requests.push(request);
    return this.answer(request);
  }
}
