import type Router from '@koa/router';
import type { Layer } from '@koa/router';
import type { Middleware } from 'koa';
import compose from 'koa-compose';

interface StaticRoute {
  layer: Layer;
  run: compose.ComposedMiddleware<never>;
}

/**
 * The router's middleware, with routes that have no parameters looked up in a table built once. On every request
 * @koa/router tests each route's regular expression, then builds and composes the chain of the one that matched
 * (about 10 µs of server CPU a request on the hot list, docs/performance.md); a path without parameters can be found by a Map lookup, and its
 * chain composed in advance. Such a request gets the context the router would give it (`params`, `routerPath`,
 * `routerName`, `_matchedRoute`, `_matchedRouteName`); everything else goes through the router as before. Only for
 * a strict, case-sensitive router without host matching or `router.use()` middleware, where a path matches a route
 * without parameters exactly when it is equal to it; any other router is used as it is.
 */
export function routesLookedUpOnce(router: Router): Middleware {
  const routes = router.routes() as Middleware;
  const { strict, sensitive, host } = router.opts;
  if (!strict || !sensitive || host !== undefined || router.stack.some((layer) => layer.methods.length === 0)) return routes;

  const table = new Map<string, Map<string, StaticRoute | null>>();
  for (const layer of router.stack) {
    if (typeof layer.path !== 'string' || layer.paramNames.length > 0) continue;
    for (const method of layer.methods) {
      const byPath = table.get(method) ?? new Map<string, StaticRoute | null>();
      table.set(method, byPath);
      // Two routes on the same method and path run one after the other in the router: left to it (null).
      byPath.set(layer.path, byPath.has(layer.path) ? null : { layer, run: compose(layer.stack as Middleware[]) as StaticRoute['run'] });
    }
  }

  return function route(ctx, next) {
    const found = table.get(ctx.method)?.get(ctx.path);
    if (found == null) return routes(ctx, next);
    const { layer } = found;
    const routed = ctx as typeof ctx & { routerPath: string; routerName?: string; _matchedRoute: string; _matchedRouteName?: string; params: object };
    routed.params = {};
    (routed.request as typeof routed.request & { params: object }).params = routed.params;
    routed.routerPath = layer.path as string;
    routed.routerName = layer.name;
    routed._matchedRoute = layer.path as string;
    if (layer.name) routed._matchedRouteName = layer.name;
    return found.run(ctx as never, next);
  };
}
