import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a sane incoming `X-Request-Id`, otherwise makes one; also sets the headers every response carries. */
export function setRequestIdAndCommonHeaders(ctx: Context): void {
  const incoming = ctx.get('X-Request-Id');
  const id = SANE.test(incoming) ? incoming : randomUUID();
  ctx.state['requestId'] = id;
  ctx.set('X-Request-Id', id);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
}

/** `setRequestIdAndCommonHeaders` as a middleware. */
export function requestIdAndCommonHeaders(): Middleware {
  return function requestId(ctx, next) {
    setRequestIdAndCommonHeaders(ctx);
    return next();
  };
}
