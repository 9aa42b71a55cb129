import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';

const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Echoes a sane incoming `X-Request-Id`, otherwise makes one, and sets the headers every answer carries. Once per
 * request: an API mounted inside the service's own app finds them already set.
 */
export function setRequestIdAndCommonHeaders(ctx: Context): void {
  if (ctx.state['requestId'] !== undefined) return;
  const incoming = ctx.get('X-Request-Id');
  const id = SANE.test(incoming) ? incoming : randomUUID();
  ctx.state['requestId'] = id;
  ctx.set('X-Request-Id', id);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
}
