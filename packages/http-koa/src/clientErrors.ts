import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERROR_STATUS, type ErrorCode } from './errorStatus.js';
import { JSON_CONTENT_TYPE } from './jsonContentType.js';

const ANSWERS: Record<string, [ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: ['request_header_too_large', 'The request headers are too large (16 KiB at most).'],
  ERR_HTTP_REQUEST_TIMEOUT: ['request_timeout', 'The request did not arrive in time.'],
};

/**
 * For `server.on('clientError', ...)`: requests Node rejects before any middleware runs (malformed HTTP, headers
 * over 16 KiB, a client too slow to send them) still get the Error body as JSON, then the connection closes.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [code, message] = ANSWERS[error.code ?? ''] ?? ['bad_request', 'The request is not valid HTTP/1.1.'];
  // An answer to HEAD carries no body (its Content-Length still describes the one a GET would get).
  endWithError(socket, code, message, error.rawPacket?.toString('latin1', 0, 5) === 'HEAD ');
}

/**
 * For `server.on('connect', ...)`: Node drops a CONNECT request silently when nothing listens. This service is
 * not a proxy: it answers 405 with the Error body, then closes the connection.
 */
export function answerConnect(_request: IncomingMessage, socket: Duplex): void {
  endWithError(socket, 'method_not_allowed', 'CONNECT is not supported: this server is not a proxy.', false, { Allow: 'GET, HEAD, POST, OPTIONS' });
}

/** Writes a whole response by hand (no request object exists yet): the Error body and the common headers. */
function endWithError(socket: Duplex, code: ErrorCode, message: string, head: boolean, extraHeaders: Record<string, string> = {}): void {
  const status = ERROR_STATUS[code];
  const body = JSON.stringify({ code, message, status });
  const extra = Object.entries(extraHeaders)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${randomUUID()}\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n${extra}Connection: close\r\n\r\n${head ? '' : body}`,
  );
}
