import {
  createServer,
  ServerResponse,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  type RequestListener,
  type Server,
  type ServerOptions,
} from 'node:http';
import { Server as NetServer } from 'node:net';

export type Drain = (timeoutMs: number) => Promise<void>;

export interface DrainableServer {
  server: Server;
  /** Stops accepting and lets what is in flight finish, for at most `timeoutMs`. */
  drain: Drain;
}

/**
 * An HTTP server with a graceful shutdown that does not reset a keep-alive client. Closing idle keep-alive sockets
 * at once (what `http.Server#close` does) races with a client that is just sending its next request on one: that
 * request dies with ECONNRESET, and a POST cannot be retried blindly. Instead, once draining: every response, in
 * flight or new, says `Connection: close` (the client opens a new connection, which is refused, rather than reuse
 * this one), idle sockets end through the server's keep-alive timeout (which clients such as undici honour before
 * reusing a socket), and whatever is left when the drain's time runs out is closed.
 */
export function createDrainableServer(options: ServerOptions = {}, listener?: RequestListener): DrainableServer {
  let draining = false;
  // Decided when a response writes its head, so that nothing is kept per request: a set of the responses in
  // flight changed on every request, and V8 reallocates a long-lived set's table in the old generation as it
  // grows and shrinks (a third of the bytes a random page promoted, docs/performance.md).
  class DrainAwareResponse extends ServerResponse {
    override writeHead(
      statusCode: number,
      statusMessageOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
      headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
    ): this {
      if (draining) this.shouldKeepAlive = false;
      // Node's writeHead takes the headers in either position.
      return super.writeHead(statusCode, statusMessageOrHeaders as string, headers);
    }
  }
  const server: Server = createServer({ ...options, ServerResponse: DrainAwareResponse }, listener);

  const drain: Drain = async (timeoutMs) => {
    draining = true;
    // Connections the kernel has already queued for us are accepted in the next poll phase; closing the listener
    // before that resets them, requests and all.
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    // net.Server#close stops accepting and waits for every connection to end, without closing idle ones first.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    const deadline = setTimeout(() => server.closeAllConnections(), timeoutMs);
    await closed;
    clearTimeout(deadline);
  };
  return { server, drain };
}
