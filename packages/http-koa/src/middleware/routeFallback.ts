import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { HttpError } from '../HttpError.js';

/**
 * Runs after the router when no route took the request: `OPTIONS` on a known path answers 204 with `Allow`, another
 * method on a known path is `405 method_not_allowed` with `Allow`, and an unknown path is `404 not_found`.
 */
export function routeFallback(router: Router): Middleware {
  return async function noRoute(ctx) {
    const { path: layers } = router.match(ctx.path, ctx.method);
    if (layers.length === 0) throw new HttpError('not_found', `No route ${ctx.method} ${ctx.path}.`);
    const allow = [...new Set([...layers.flatMap((layer) => layer.methods), 'OPTIONS'])].join(', ');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', allow);
      ctx.status = 204;
      return;
    }
    throw new HttpError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}: use ${allow}.`, { Allow: allow });
  };
}
