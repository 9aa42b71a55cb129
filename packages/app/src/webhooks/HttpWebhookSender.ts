// The modules, not their `request`: called through them, the http instrumentation's patch applies (traces).
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { RESPONSE_BODY_MAX, type WebhookRequest, type WebhookResponse, type WebhookSender } from '@petstore/core';
import ipaddr from 'ipaddr.js';
import { Webhook } from 'standardwebhooks';
import { safeLookup, unsafeAddress } from './safeTargets.js';

/** Reads at most RESPONSE_BODY_MAX characters of an answer, then lets the rest go. */
function startOf(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      text += chunk;
      if (text.length >= RESPONSE_BODY_MAX) {
        response.destroy();
        resolve(text.slice(0, RESPONSE_BODY_MAX));
      }
    });
    response.on('end', () => resolve(text));
    response.on('error', () => resolve(text));
    response.on('close', () => resolve(text));
  });
}

/**
 * Standard Webhooks over Node's HTTP client: `webhook-id` (the event id, the same on every attempt),
 * `webhook-timestamp` (seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256>` per secret, space-separated,
 * signed by the `standardwebhooks` package). Redirects are not followed (a 3xx is a failure). Unless `allowPrivate`,
 * the address is checked as the connection is made (safeLookup, or the literal address), whatever DNS said earlier.
 */
export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly allowPrivate: boolean) {}

  send({ url, eventId, sentAt, body, secrets, timeoutMs }: WebhookRequest): Promise<WebhookResponse> {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!this.allowPrivate) {
      if (target.protocol !== 'https:') return Promise.resolve({ statusCode: null, body: null, error: 'unsafe webhook target: not https' });
      const literal = ipaddr.isValid(host) ? unsafeAddress(host) : null;
      if (literal) return Promise.resolve({ statusCode: null, body: null, error: `unsafe webhook target: ${literal}` });
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
      const outgoing = (target.protocol === 'https:' ? https : http).request(
        target,
        { method: 'POST', headers, timeout: timeoutMs, ...(this.allowPrivate ? {} : { lookup: safeLookup }) },
        (response) => {
          clearTimeout(deadline);
          void startOf(response).then((text) => resolve({ statusCode: response.statusCode ?? null, body: text, error: null }));
        },
      );
      // The whole attempt, connection to answer, has timeoutMs (the socket's own timeout only counts idle time).
      const deadline = setTimeout(() => outgoing.destroy(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
      outgoing.on('error', (error: Error) => {
        clearTimeout(deadline);
        resolve({ statusCode: null, body: null, error: error.message });
      });
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer in ${timeoutMs} ms`)));
      outgoing.end(body);
    });
  }
}
