import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

interface ReceivedWebhook {
  path: string;
  /** When its body had arrived (ms since the epoch). */
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * What the receiver answers a webhook: a status, `hang` (never answer), or `drip` (`200` and its headers at once,
 * then one byte of body a second, never ending).
 */
type ReceiverAnswer = number | 'hang' | 'drip';

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Decides each answer (default 200); called with the webhooks received so far, this one included. */
  answer: (received: ReceivedWebhook[]) => ReceiverAnswer;
  /** Verifies every webhook received with `secret`, as a consumer does with the standardwebhooks package; the payloads. */
  verifyAll(secret: string): unknown[];
  close(): Promise<void>;
}

/** A receiver of webhooks on loopback (plain http), recording each request. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', at: Date.now(), headers: req.headers, body });
      const status = receiver.answer(received);
      if (status === 'drip') {
        res.writeHead(200, { 'Content-Type': 'text/plain' }).flushHeaders();
        const drip = setInterval(() => res.write('.'), 1000);
        res.on('close', () => clearInterval(drip));
      } else if (status !== 'hang') res.writeHead(status, { 'Content-Type': 'text/plain' }).end(status < 300 ? 'ok' : 'not now');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    answer: () => 200,
    verifyAll: (secret) => received.map(({ headers, body }) => new Webhook(secret).verify(body, headers as Record<string, string>)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
