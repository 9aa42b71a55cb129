import { ValidationError, type NumberLiterals } from '@petstore/core';
import inflate from 'inflation';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { sendContinueIfAwaited } from '../expectContinue.js';
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

/** A content coding's name, as inflation knows it: names are case-insensitive, and `x-gzip` is gzip (RFC 9110 8.4.1.3). */
function contentCoding(header: string): string {
  const coding = header.trim().toLowerCase() || 'identity';
  return coding === 'x-gzip' ? 'gzip' : coding;
}

/** The body's bytes after decompression, at most MAX_BODY_BYTES of them. */
async function readBytes(ctx: Context): Promise<Buffer> {
  try {
    const encoding = contentCoding(ctx.get('Content-Encoding'));
    // The declared length counts compressed bytes: only an unencoded body can be checked against it.
    const length = encoding === 'identity' ? ctx.get('Content-Length') || undefined : undefined;
    // inflation reads `options.encoding` (its type definitions call it `gzip`).
    return await getRawBody(inflate(ctx.req, { encoding } as inflate.Options), { limit: MAX_BODY_BYTES, length });
  } catch (error) {
    const { status } = error as { status?: number };
    if (status === 413) throw new HttpError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
    if (status === 415)
      throw new HttpError('unsupported_media_type', 'The request body must be JSON, with no content encoding or gzip, deflate or br.');
    throw new HttpError('malformed_json', 'The request body could not be read (bad length or compressed data).');
  }
}

/**
 * The text of a body that a middleware mounted before the API has already read (a body parser such as
 * @koa/bodyparser or koa-bodyparser): its `ctx.request.rawBody` when it kept one, under the same size limit; else
 * the API cannot see the body, which is the embedder's mistake to hear about (a 500, and `onInternalError`).
 */
function alreadyRead(ctx: Context): string {
  const raw = (ctx.request as { rawBody?: unknown }).rawBody;
  if (typeof raw !== 'string') {
    throw new Error(
      'The request body was read before the pets API (by a body parser mounted ahead of it, such as koa-bodyparser): mount createPetsApi before any body parser, or let the parser keep ctx.request.rawBody.',
    );
  }
  if (Buffer.byteLength(raw) > MAX_BODY_BYTES) throw new HttpError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`);
  return raw;
}

/**
 * Reads a JSON body safely, before any route sees it:
 * - `400` for a repeated `Content-Type` or `Content-Encoding` header;
 * - `415` unless the content type is JSON (any `+json` too) in UTF-8: a `charset` other than UTF-8 is refused rather
 *   than decoded into replacement characters; an unknown `Content-Encoding` is refused too; a JSON Patch
 *   (`application/json-patch+json`) is refused naming the `accepted` types, unless they include it;
 * - `413` past 16 KiB (after decompression, so a gzip bomb stops at the limit);
 * - `400 validation_error` for the JSON value `null`;
 * - `400 malformed_json` for bytes that are not UTF-8, text that is not JSON, a key repeated in one object, or
 *   nesting deeper than MAX_JSON_DEPTH.
 * `__proto__` keys stay plain own data (JSON.parse defines them as own properties; nothing is ever merged from the
 * body), so core rejects them as unknown fields. A body already read by a body parser mounted before the API is
 * taken from its `ctx.request.rawBody` (and checked the same way).
 */
export async function readJsonBody(ctx: Context, accepted: readonly string[] = ['application/json']): Promise<JsonBody> {
  // Node keeps the first of two Content-Type headers; a proxy may keep the last: the two would read the body apart.
  for (const name of ['Content-Type', 'Content-Encoding']) {
    if ((ctx.req.headersDistinct[name.toLowerCase()]?.length ?? 0) > 1) throw new HttpError('bad_request', `Send one ${name} header, not several.`);
  }
  if (!ctx.is('application/json', '+json')) {
    throw new HttpError('unsupported_media_type', 'Send the request body as JSON with "Content-Type: application/json".');
  }
  // A JSON Patch (RFC 6902) is a list of operations, not the document or merge patch an operation takes.
  if (ctx.is('application/json-patch+json') && !accepted.includes('application/json-patch+json')) {
    throw new HttpError('unsupported_media_type', `JSON Patch is not supported here: send the body as ${accepted.join(' or ')}.`);
  }
  const charset = ctx.request.charset.toLowerCase();
  if (charset !== '' && charset !== 'utf-8' && charset !== 'utf8') {
    throw new HttpError('unsupported_media_type', `The request body must be UTF-8 JSON; charset=${charset.slice(0, 40)} is not supported.`);
  }
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > MAX_BODY_BYTES) throw new HttpError('payload_too_large', `The request body exceeds ${MAX_BODY_BYTES} bytes.`);

  let text: string;
  if (ctx.req.readableEnded) {
    text = alreadyRead(ctx);
  } else {
    sendContinueIfAwaited(ctx.req, ctx.res);
    try {
      text = utf8.decode(await readBytes(ctx));
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw new HttpError('malformed_json', 'The request body is not valid UTF-8.');
    }
  }
  let value: unknown;
  try {
    // An empty body is no value at all: core then says what the body must be.
    value = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    throw new HttpError('malformed_json', 'The request body is not valid JSON.');
  }
  // Every body this API takes is an object: `null` is never "no body" (an optional body is left out instead).
  if (value === null) throw ValidationError.of('body', 'The body must be a JSON object, not null.');
  const inspection = inspectJson(text);
  if (inspection.tooDeep) throw new HttpError('malformed_json', `The request body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
  if (inspection.duplicateKey !== null)
    throw new HttpError('malformed_json', `The request body repeats the key "${inspection.duplicateKey}" in one object.`);

  return { value, numberLiterals: inspection.topLevelNumbers };
}
