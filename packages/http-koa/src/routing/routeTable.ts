import { METHODS } from 'node:http';
import FindMyWay from 'find-my-way';
import type { Operation } from '../operations/Operation.js';

/** What a request's method and URL lead to. */
export type Route<O extends Operation = Operation> =
  | { kind: 'operation'; operation: O; params: Record<string, string | undefined>; query: Record<string, string | string[]> }
  /** A path that exists, asked with a method it does not answer (`OPTIONS` included): the methods it answers. */
  | { kind: 'methods'; allow: string }
  | { kind: 'none' };

type Store<O> = { kind: 'methods'; allow: string } | { kind: 'operation'; operation: O };

/** `/pets/{petId}` (OpenAPI) as find-my-way writes it: `/pets/:petId`. */
const routerPath = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');

/**
 * The routes of the declared operations under `prefix`, looked up with find-my-way (the radix-tree router Fastify
 * uses) through its public API. Matching is exact: case-sensitive, no trailing or doubled slash; percent-encoded
 * characters are decoded as URI normalisation allows, except `/`, `?`, `#` and `%`. A GET route also answers
 * HEAD; every other method of a known path finds the list of methods it answers (for `405` and `OPTIONS`).
 */
export function routeTable<O extends Operation>(prefix: string, operations: readonly O[]): (method: string, url: string) => Route<O> {
  const router = FindMyWay<FindMyWay.HTTPVersion.V1>({
    caseSensitive: true,
    ignoreTrailingSlash: false,
    ignoreDuplicateSlashes: false,
    // A path's length is bounded by the server's header limit; longer ids still reach their operation (a 404).
    maxParamLength: 16 * 1024,
    // Called for a path that is not valid percent-encoded UTF-8: find() then answers a route with no store.
    onBadUrl: () => undefined,
  });
  const noop = () => undefined;
  for (const path of new Set(operations.map((operation) => operation.path))) {
    const onPath = operations.filter((operation) => operation.path === path);
    const answered = new Set<string>();
    for (const operation of onPath) {
      const store: Store<O> = { kind: 'operation', operation };
      router.on(operation.method, prefix + routerPath(path), noop, store);
      answered.add(operation.method);
      if (operation.method === 'GET') {
        router.on('HEAD', prefix + routerPath(path), noop, store);
        answered.add('HEAD');
      }
    }
    const methods: Store<O> = { kind: 'methods', allow: [...answered, 'OPTIONS'].join(', ') };
    for (const method of METHODS) if (!answered.has(method)) router.on(method as FindMyWay.HTTPMethod, prefix + routerPath(path), noop, methods);
  }

  type Match = { store: Store<O> | null; params: Record<string, string | undefined>; searchParams: Record<string, string | string[]> };
  const find = (method: string, target: string) => router.find(method as FindMyWay.HTTPMethod, target) as Match | null;
  return function route(method, url) {
    let match = find(method, url);
    // A path that is not valid percent-encoded UTF-8 is matched as it is written (its parameters undecoded, for
    // the operation to refuse): `%` is encoded, so that decoding gives the text back.
    if (match?.store === null) match = find(method, url.replace(/%/g, '%25'));
    if (match === null || match.store === null || hasEmptyParameter(match.params)) return NONE;
    const { store } = match;
    return store.kind === 'operation' ? { kind: 'operation', operation: store.operation, params: match.params, query: match.searchParams } : store;
  };
}

const NONE = { kind: 'none' } as const;

/** find-my-way lets a parameter match an empty segment (`/pets/`): no route has an empty parameter. */
function hasEmptyParameter(params: Record<string, string | undefined>): boolean {
  for (const name in params) if (params[name] === '') return true;
  return false;
}
