import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Requests whose `100 Continue` the server left to the API (see continueOnceAdmitted). */
const awaitingContinue = new WeakSet<IncomingMessage>();

/**
 * Answers `Expect: 100-continue` from the API rather than from Node: Node would send `100 Continue` before any
 * middleware runs, inviting a client without a key to upload a body only to be refused. With this, a request is
 * handled as any other ('request' listeners included), and `100 Continue` is sent when an operation starts reading
 * its body, after admission; a request refused before that (401, 403, 429, 404, 405) gets its answer and no body.
 */
export function continueOnceAdmitted(server: Server): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    awaitingContinue.add(req);
    server.emit('request', req, res);
  });
}

/** Before a body is read: the `100 Continue` its client may be waiting for, if the server left it to the API. */
export function sendContinueIfAwaited(req: IncomingMessage, res: ServerResponse): void {
  if (awaitingContinue.delete(req)) res.writeContinue();
}
