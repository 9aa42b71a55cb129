import type { Context } from 'koa';
import { JSON_CONTENT_TYPE } from '../jsonContentType.js';
import type { Parameter } from '../operations/Operation.js';

/** The `{keyId}` of the key paths. */
export const KEY_ID: Parameter = {
  name: 'keyId',
  in: 'path',
  required: true,
  description: "The key's id (`key_...`), as createKey and listKeys answer it.",
  schema: { type: 'string', minLength: 1 },
  example: 'key_3f0c9a5e1b2d4c6f',
};

/** `limit` and `cursor` of a paginated list, with a cursor of that listing as the example (one the server accepts). */
export const pageParameters = (cursorExample: string): readonly Parameter[] => [
  {
    name: 'limit',
    in: 'query',
    required: false,
    description: 'Items per page, 1 to 100; default 20.',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    example: 20,
  },
  {
    name: 'cursor',
    in: 'query',
    required: false,
    description: "The previous page's `nextCursor`.",
    schema: { type: 'string' },
    example: cursorExample,
  },
];

/** Answers with a JSON body. */
export function sendJson(ctx: Context, body: unknown, status = 200): void {
  ctx.status = status;
  ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = JSON.stringify(body);
}

/** The `{endpointId}` of the webhook endpoint paths. */
export const ENDPOINT_ID: Parameter = {
  name: 'endpointId',
  in: 'path',
  required: true,
  description: "The endpoint's id (`we_...`), as createWebhookEndpoint and listWebhookEndpoints answer it.",
  schema: { type: 'string', minLength: 1 },
  example: 'we_5c2a9e0b7d1f4a36',
};
