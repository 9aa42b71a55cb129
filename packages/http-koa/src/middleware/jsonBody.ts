import type { NumberLiterals } from '@petstore/core';
import inflate from 'inflation';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { HttpError } from '../HttpError.js';
import { inspectJson, MAX_JSON_DEPTH } from './inspectJson.js';

export const MAX_BODY_BYTES = 16 * 1024;

export interface JsonBody {
  /** The parsed value; undefined for an empty body. */
  value: unknown;
  /** The source text of the top-level numbers, by key (see core's parseNewPet). */
  numberLiterals: NumberLiterals;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body's bytes after decompression, at most MAX_BODY_BYTES of them. */
async function readBytes(ctx: Context): Promise<Buffer> {
  try {
    const encoded = (ctx.get('Content-Encoding') || 'identity').toLowerCase() !== 'identity';
    // The declared length counts compressed bytes: only an unencoded body can be checked against it.
    return await getRawBody(inflate(ctx.req), { limit: MAX_BODY_BYTES, length: encoded ? undefined : ctx.get('Content-Length') || undefined });
  } catch (error) {
    const { status } = error as { status?: number };
    if (status === 413) throw new HttpError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
    if (status === 415)
      throw new HttpError('unsupported_media_type', 'The request body must be JSON, with no content encoding or gzip, deflate or br.');
    throw new HttpError('malformed_json', 'The request body could not be read (bad length or compressed data).');
  }
}

/**
 * Reads a JSON body safely, before any route sees it:
 * - `415` unless the content type is JSON (any `+json` too) in UTF-8: a `charset` other than UTF-8 is refused rather
 *   than decoded into replacement characters; an unknown `Content-Encoding` is refused too;
 * - `413` past 16 KiB (after decompression, so a gzip bomb stops at the limit);
 * - `400 malformed_json` for bytes that are not UTF-8, text that is not JSON, a key repeated in one object, or
 *   nesting deeper than MAX_JSON_DEPTH.
 * `__proto__` keys stay plain own data (JSON.parse defines them as own properties; nothing is ever merged from the
 * body), so core rejects them as unknown fields.
 */
export async function readJsonBody(ctx: Context): Promise<JsonBody> {
  if (!ctx.is('application/json', '+json')) {
    throw new HttpError('unsupported_media_type', 'Send the request body as JSON with "Content-Type: application/json".');
  }
  const charset = ctx.request.charset.toLowerCase();
  if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError('unsupported_media_type', `The request body must be UTF-8 JSON; charset=${charset.slice(0, 40)} is not supported.`);
  }
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > MAX_BODY_BYTES) throw new HttpError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`);

  let text: string;
  try {
    text = utf8.decode(await readBytes(ctx));
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw new HttpError('malformed_json', 'The request body is not valid UTF-8.');
  }
  let value: unknown;
  try {
    // An empty body is no value at all: core then says what the body must be.
    value = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    throw new HttpError('malformed_json', 'The request body is not valid JSON.');
  }
  const inspection = inspectJson(text);
  if (inspection.tooDeep) throw new HttpError('malformed_json', `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
  if (inspection.duplicateKey !== null)
    throw new HttpError('malformed_json', `The request body repeats the key "${inspection.duplicateKey}" in one object.`);

  return { value, numberLiterals: inspection.topLevelNumbers };
}
