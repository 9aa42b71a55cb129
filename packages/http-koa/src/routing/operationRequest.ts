import { ValidationError } from '@petstore/core';
import type { RouterContext } from '@koa/router';
import { parse as parseQuery } from 'fast-querystring';
import type { Context } from 'koa';
import { HttpError } from '../HttpError.js';
import type { JsonBody } from '../middleware/jsonBody.js';
import type { Operation, OperationRequest } from '../operations/Operation.js';

/**
 * Query parameters an operation does not declare are refused, on every operation
 * (docs/decisions/0014-strict-query-parameters.md): a typo never goes unnoticed. Null when there are none.
 */
export function unknownQueryParameters(operation: Operation, query: Readonly<Record<string, unknown>>): ValidationError | null {
  let problems: { field: string; message: string }[] | null = null;
  for (const field in query) {
    if (operation.parameters?.some((p) => p.in === 'query' && p.name === field)) continue;
    const known = operation.parameters?.filter((p) => p.in === 'query').map((p) => p.name) ?? [];
    (problems ??= []).push({
      field,
      message: `${field} is not a known query parameter (${known.length === 0 ? 'this operation takes none' : `use ${known.slice(0, -1).join(', ')}${known.length > 1 ? ' or ' : ''}${known.at(-1)}`})`,
    });
  }
  return problems && new ValidationError(problems);
}

/** `idempotency-key` as people write it: `Idempotency-Key`. */
const displayName = (name: string) => name.replace(/(^|-)[a-z]/g, (letter) => letter.toUpperCase());

function headerOf(ctx: Context): (name: string) => string | undefined {
  return (name) => {
    const values = ctx.req.headersDistinct[name];
    if (values !== undefined && values.length > 1) throw new HttpError('bad_request', `Send one ${displayName(name)} header, not several.`);
    return values?.[0];
  };
}

const NO_BODY: JsonBody = { value: undefined, numberLiterals: new Map<string, string>() };

/**
 * The query string's parameters: text, or an array of texts when repeated. fast-querystring (as find-my-way and
 * Fastify use it) rather than Koa's `ctx.query`: a third of the time, and a value that is not valid percent-encoded
 * UTF-8 reaches the operation as it was written, for it to refuse.
 */
export const queryOf = (ctx: Context): Record<string, string | string[]> =>
  ctx.querystring === '' ? {} : (parseQuery(ctx.querystring) as Record<string, string | string[]>);

/** What the operation the router found gets to read: its parameters, its query, its body (if any), its headers. */
export function operationRequest(ctx: Context, query: Readonly<Record<string, string | string[]>>, body: JsonBody = NO_BODY): OperationRequest {
  const { params } = ctx as RouterContext;
  return { params, query, body: body.value, numberLiterals: body.numberLiterals, header: headerOf(ctx) };
}

/** A known path asked with a method it does not answer: `405` with `Allow`, or `OPTIONS`' `204` with `Allow`. */
export function answerMethods(ctx: Context, allow: string): void {
  if (ctx.method !== 'OPTIONS')
    throw new HttpError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}: use ${allow}.`, { Allow: allow });
  ctx.set('Allow', allow);
  ctx.status = 204;
}
