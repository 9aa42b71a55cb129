import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Echoes a sane incoming `X-Request-Id`, otherwise makes one; also sets the headers every response carries. */
export function requestIdAndCommonHeaders(): Middleware {
  return async function requestId(ctx, next) {
    const incoming = ctx.get('X-Request-Id');
    const id = SANE.test(incoming) ? incoming : randomUUID();
    ctx.state['requestId'] = id;
    ctx.set('X-Request-Id', id);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  };
}
