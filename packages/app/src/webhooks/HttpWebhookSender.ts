// The modules, not their `request`: called through them, the http instrumentation's patch applies (traces).
import http from 'node:http';
import https from 'node:https';
import { RESPONSE_BODY_MAX, type WebhookRequest, type WebhookResponse, type WebhookSender } from '@petstore/core';
import ipaddr from 'ipaddr.js';
import { Webhook } from 'standardwebhooks';
import { safeLookup, unsafeAddress } from './safeTargets.js';

/** What an answer means for the delivery: a 2xx delivers it, `410 Gone` refuses it for good, anything else is retried. */
function answered(statusCode: number, body: string): WebhookResponse {
  const delivered = statusCode >= 200 && statusCode < 300;
  return {
    result: delivered ? 'delivered' : statusCode === 410 ? 'refused' : 'retry',
    statusCode,
    body,
    error: delivered ? null : `the receiver answered ${statusCode}`,
  };
}

const failed = (error: string, statusCode: number | null = null, body: string | null = null): WebhookResponse => ({
  result: 'retry',
  statusCode,
  body,
  error,
});

/**
 * Standard Webhooks over Node's HTTP client: `webhook-id` (the event id, the same on every attempt),
 * `webhook-timestamp` (seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` per secret, space-separated,
 * signed by the `standardwebhooks` package). Redirects are not followed (a 3xx is a failure). Unless `allowPrivate`,
 * the address is checked as the connection is made (safeLookup, or the literal address), whatever DNS said earlier.
 * The sender decides what an answer means for the delivery (`answered`).
 */
export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly allowPrivate: boolean) {}

  send({ url, eventId, sentAt, body, secrets, timeoutMs }: WebhookRequest): Promise<WebhookResponse> {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!this.allowPrivate) {
      if (target.protocol !== 'https:') return Promise.resolve(failed('unsafe webhook target: not https'));
      const literal = ipaddr.isValid(host) ? unsafeAddress(host) : null;
      if (literal) return Promise.resolve(failed(`unsafe webhook target: ${literal}`));
    }
    const signature = secrets.map((secret) => new Webhook(secret).sign(eventId, sentAt, body)).join(' ');
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'petstore-webhooks/1',
      'webhook-id': eventId,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signature,
    };
    return new Promise((resolve) => {
      let statusCode: number | null = null;
      let text = '';
      let settled = false;
      const settle = (response: WebhookResponse, cut: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        if (cut) outgoing.destroy();
        resolve(response);
      };
      const outgoing = (target.protocol === 'https:' ? https : http).request(
        target,
        { method: 'POST', headers, ...(this.allowPrivate ? {} : { lookup: safeLookup }) },
        (response) => {
          statusCode = response.statusCode ?? 0;
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
            // The rest is not read: the connection is closed.
            if (text.length >= RESPONSE_BODY_MAX) settle(answered(statusCode!, text.slice(0, RESPONSE_BODY_MAX)), true);
          });
          response.on('end', () => settle(answered(statusCode!, text), false));
          response.on('close', () => settle(failed('the answer was cut off', statusCode, text), true));
        },
      );
      // The whole attempt, connection to the answer's last byte, has timeoutMs: a receiver that sends its headers and
      // then drips its body is cut off at the deadline like one that never answers.
      const deadline = setTimeout(
        () => settle(failed(`no complete answer in ${timeoutMs} ms`, statusCode, statusCode === null ? null : text), true),
        timeoutMs,
      );
      outgoing.on('error', (error: Error) => settle(failed(error.message), true));
      outgoing.end(body);
    });
  }
}
