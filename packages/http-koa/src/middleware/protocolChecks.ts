import type { Middleware } from 'koa';
import { HttpError } from '../HttpError.js';
import { headerCount } from './headerCount.js';

/**
 * What HTTP/1.1 requires before a request can be served at all, checked here rather than left to Node (which answers
 * these with an empty body or lets them through): exactly one `Host` header on HTTP/1.1 (RFC 9112 section 3.2) and
 * no expectation other than `100-continue` (RFC 9110 section 10.1.1). The server hands such requests to the app
 * (`requireHostHeader: false`, a `checkExpectation` listener) so that they get the Error body and the common headers.
 */
export const protocolChecks: Middleware = (ctx, next) => {
  if (ctx.req.httpVersion === '1.1' && ctx.req.headers.host === undefined) {
    throw new HttpError('bad_request', 'An HTTP/1.1 request needs a Host header.');
  }
  // Node keeps the first of two Host headers and drops the other silently.
  if (headerCount(ctx.req.rawHeaders, 'host') > 1) throw new HttpError('bad_request', 'Send one Host header, not several.');
  const expect = ctx.req.headers.expect;
  if (expect !== undefined && expect.toLowerCase() !== '100-continue') {
    throw new HttpError('expectation_failed', 'The only expectation supported is "Expect: 100-continue".');
  }
  return next();
};
