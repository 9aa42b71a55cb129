import type Router from '@koa/router';
import type { Clock } from '@petstore/core';
import { errorResponses, logToStderr, type InternalErrorListener } from '../middleware/errorResponses.js';
import { openApiDocument, type DocumentInfo } from '../openapi/openApiDocument.js';
import type { Operation } from '../operations/Operation.js';
import { operationRouter, type RouteHandlers } from './operationRouter.js';

/** An interface as the middleware of a @koa/router router, and the OpenAPI document that describes it. */
export type OperationsApi = ReturnType<Router['routes']> & { readonly openApiDocument: object };

export interface ApiAssembly<O extends Operation> {
  prefix: string;
  /** The operations of the interface, each declared once; the one that serves the document reads it through `document`. */
  declare(document: () => object): O[];
  document: DocumentInfo;
  /** Called with every unexpected error (answered 500); default: written to stderr. */
  onInternalError: InternalErrorListener | undefined;
  clock: Clock;
  /** What answers each kind of request under the prefix, after the error middleware. */
  handlers(operations: readonly O[]): RouteHandlers<O>;
}

/**
 * What the `/v1` and admin interfaces are made of: the declared operations, the document written from them, and the
 * router that answers them, with the error middleware first on every route. The document is written when it is first
 * read (a request for it, or `openApiDocument`), not at every start: it is a few tens of milliseconds of CPU.
 */
export function assembleApi<O extends Operation>(assembly: ApiAssembly<O>): OperationsApi {
  let document: object | undefined;
  const documentOf = () => (document ??= openApiDocument(operations, assembly.document));
  const operations = assembly.declare(documentOf);
  const errors = errorResponses(assembly.onInternalError ?? logToStderr, () => assembly.clock.now().getTime());
  const handlers = assembly.handlers(operations);
  const router = operationRouter(assembly.prefix, operations, {
    operation: (operation) => [errors, ...handlers.operation(operation)],
    methods: (allow) => [errors, ...handlers.methods(allow)],
    none: [errors, ...handlers.none],
  });
  return Object.defineProperty(router.routes(), 'openApiDocument', { get: documentOf, enumerable: true }) as OperationsApi;
}
