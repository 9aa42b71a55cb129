import Router, { type RouterMiddleware } from '@koa/router';
import type { Context, Middleware } from 'koa';
import compose from 'koa-compose';
import type { Operation } from '../operations/Operation.js';

/** The middleware that answers each kind of request under the prefix; the last one of each never calls `next`. */
export interface RouteHandlers<O extends Operation> {
  /** A request for `operation`. */
  operation(operation: O): Middleware[];
  /** A known path asked with a method it does not answer (`OPTIONS` included); `allow` lists those it does. */
  methods(allow: string): Middleware[];
  /** Any other path under the prefix (`404`). */
  none: Middleware[];
}

/** `/pets/{petId}` (OpenAPI) as @koa/router writes it: `/pets/:petId`. */
const routerPath = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');

/**
 * The routes of the declared operations under `prefix`, as a @koa/router router (public API only): one route per
 * operation, named by its operation id (a GET also answers HEAD); after them, one route per path for every other
 * method (`405` and `OPTIONS`, with the methods the path answers); last, one for any other path under the prefix.
 * Every route's handler answers without calling `next`, so the first route that matches a request is the one that
 * runs, whether the router is used on its own or mounted in another (`router.use(api)`), and it is matched once.
 * On its own, the router runs only that route (`exclusive: 'specificity'`: the first of the matching routes with
 * the fewest parameters, and the catch-all has two), and each route's middleware is composed once, here: @koa/router
 * composes the matching routes' middleware again on every request, at a cost that grows with their number.
 * Matching is exact: case-sensitive (`sensitive`), no trailing slash (`strict`), the path as it is written (no
 * percent-decoding before matching); path parameters are percent-decoded, and left as they are when that fails.
 */
export function operationRouter<O extends Operation>(prefix: string, operations: readonly O[], handlers: RouteHandlers<O>): Router {
  const router = new Router({ prefix, sensitive: true, strict: true, exclusive: 'specificity' });
  const route = (middleware: Middleware[]) => compose<Context>(middleware) as RouterMiddleware;
  for (const path of new Set(operations.map((operation) => operation.path))) {
    // More would make the catch-all (two parameters) the more specific route.
    if ((path.match(/\{/g) ?? []).length > 1) throw new Error(`${path}: a route has at most one path parameter`);
    const onPath = operations.filter((operation) => operation.path === path);
    for (const operation of onPath) {
      const middleware = route(handlers.operation(operation));
      if (operation.method === 'GET') router.get(operation.operationId, routerPath(path), middleware);
      else if (operation.method === 'POST') router.post(operation.operationId, routerPath(path), middleware);
      else if (operation.method === 'PATCH') router.patch(operation.operationId, routerPath(path), middleware);
      else router.delete(operation.operationId, routerPath(path), middleware);
    }
    const answered = onPath.flatMap((operation) => (operation.method === 'GET' ? ['GET', 'HEAD'] : [operation.method]));
    router.all(routerPath(path), route(handlers.methods([...new Set(answered), 'OPTIONS'].join(', '))));
  }
  // `{/}`: the prefix alone with a trailing slash (`/v1/`) is under the prefix too.
  router.all('{/*rest}{/}', route(handlers.none));
  return router;
}
