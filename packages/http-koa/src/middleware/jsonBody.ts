import { bodyParser } from '@koa/bodyparser';
import { visit } from 'jsonc-parser';
import type { Middleware } from 'koa';
import { HttpError } from '../HttpError.js';

export const MAX_BODY_BYTES = 16 * 1024;

/** Names the first key that appears twice in one object of a valid JSON text, or null. */
function findDuplicateKey(json: string): string | null {
  const objects: Set<string>[] = [];
  let duplicate: string | null = null;
  visit(json, {
    onObjectBegin: () => {
      objects.push(new Set());
    },
    onObjectEnd: () => {
      objects.pop();
    },
    onObjectProperty: (property) => {
      const keys = objects[objects.length - 1]!;
      if (keys.has(property)) duplicate ??= property;
      keys.add(property);
    },
  });
  return duplicate;
}

const parse = bodyParser({
  enableTypes: ['json'],
  // The content type was checked already (any JSON type, `+json` suffixes included).
  detectJSON: () => true,
  jsonLimit: MAX_BODY_BYTES,
  // Non-strict: any JSON value parses, so core can say precisely that the body must be an object.
  jsonStrict: false,
  encoding: 'utf-8',
  onError: (error: Error & { status?: number; type?: string }) => {
    if (error.status === 413) throw new HttpError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
    if (error.status === 415) throw new HttpError('unsupported_media_type', 'The request body must be UTF-8 JSON, without a content encoding.');
    throw new HttpError('malformed_json', 'The request body is not valid JSON.');
  },
});

/**
 * Reads a JSON body safely: `415` unless the content type is JSON (checked before parsing, since the parser
 * would otherwise leave `{}` silently), `413` past 16 KiB (after decompression), `400 malformed_json` for invalid
 * JSON or a key repeated in one object. `__proto__` keys stay plain data: nothing is ever merged from the body.
 */
export function jsonBody(): Middleware {
  return async function readJsonBody(ctx, next) {
    if (!ctx.is('application/json', '+json')) {
      throw new HttpError('unsupported_media_type', 'Send the request body as JSON with "Content-Type: application/json".');
    }
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > MAX_BODY_BYTES) throw new HttpError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
    await parse(ctx, async () => undefined);
    const duplicate = typeof ctx.request.rawBody === 'string' ? findDuplicateKey(ctx.request.rawBody) : null;
    if (duplicate !== null) throw new HttpError('malformed_json', `The request body repeats the key "${duplicate}" in one object.`);
    await next();
  };
}
