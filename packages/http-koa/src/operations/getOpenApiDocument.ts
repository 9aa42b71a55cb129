import { defineOperation, type Operation } from './Operation.js';
import { JSON_CONTENT_TYPE } from '../jsonContentType.js';

/** `GET /openapi.json`: the document these operations are described by. */
export function getOpenApiDocument(document: () => object): Operation {
  let text: string | undefined;
  return defineOperation({
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/openapi.json',
    admission: 'counted',
    tag: 'meta',
    summary: 'This document',
    description: 'The OpenAPI 3.1 description of this interface (also served without a key at `/docs/openapi.json`).',
    responses: [{ status: 200, description: 'The OpenAPI document.', body: { type: 'object', example: { openapi: '3.1.0' } } }],
    errors: [],
    input: () => undefined,
    handle(ctx) {
      ctx.set('Content-Type', JSON_CONTENT_TYPE);
      ctx.body = text ??= JSON.stringify(document());
    },
  });
}
