import { defineOperation, type Admission, type Operation } from './Operation.js';
import { JSON_CONTENT_TYPE } from '../jsonContentType.js';

/** `GET /openapi.json`: the document these operations are described by, admitted as the interface's other operations. */
export function getOpenApiDocument<A extends Admission>(document: () => object, admission: A, description: string): Operation<A> {
  let text: string | undefined;
  return defineOperation({
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    admission,
    tag: 'meta',
    summary: 'This document',
    description,
    responses: [{ status: 200, description: 'The OpenAPI document.', body: { type: 'object', example: { openapi: '3.1.0' } } }],
    errors: [],
    input: () => undefined,
    handle(ctx) {
      ctx.set('Content-Type', JSON_CONTENT_TYPE);
      ctx.body = text ??= JSON.stringify(document());
    },
  });
}
