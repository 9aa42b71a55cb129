import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

export type Drain = (timeoutMs: number) => Promise<void>;

/**
 * Graceful shutdown without resetting a keep-alive client. Closing idle keep-alive sockets at once (what
 * `http.Server#close` does) races with a client that is just sending its next request on one: that request dies
 * with ECONNRESET, and a POST cannot be retried blindly. Instead, once draining: every response, in flight or new,
 * says `Connection: close` (the client opens a new connection, which is refused, rather than reuse this one), idle
 * sockets end through the server's keep-alive timeout (which clients such as undici honour before reusing a socket),
 * and whatever is left when `timeoutMs` runs out is closed.
 */
export function drainOnClose(server: Server): Drain {
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  // One listener for every response (not a closure per request): this runs on every request.
  function forget(this: ServerResponse) {
    inFlight.delete(this);
  }
  server.on('request', (_request, response: ServerResponse) => {
    if (draining) {
      response.shouldKeepAlive = false;
      return;
    }
    inFlight.add(response);
    response.on('close', forget);
  });

  return async (timeoutMs) => {
    draining = true;
    for (const response of inFlight) if (!response.headersSent) response.shouldKeepAlive = false;
    // Connections the kernel has already queued for us are accepted in the next poll phase; closing the listener
    // before that resets them, requests and all.
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    // net.Server#close stops accepting and waits for every connection to end, without closing idle ones first.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
    await closed;
    clearTimeout(deadline);
  };
}
