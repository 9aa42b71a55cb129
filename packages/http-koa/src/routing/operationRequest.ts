import { ValidationError } from '@petstore/core';
import type { Context } from 'koa';
import { HttpError } from '../HttpError.js';
import type { JsonBody } from '../middleware/jsonBody.js';
import type { Operation, OperationRequest } from '../operations/Operation.js';
import type { Route } from './routeTable.js';

/**
 * Query parameters an operation does not declare are refused, on every operation (docs/decisions/strict-query-
 * parameters.md): a typo never goes unnoticed. Null when there are none.
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

/** What the operation the router found gets to read: its parameters, its query, its body (if any), its headers. */
export function operationRequest(ctx: Context, found: Extract<Route, { kind: 'operation' }>, body: JsonBody = NO_BODY): OperationRequest {
  return { params: found.params, query: found.query, body: body.value, numberLiterals: body.numberLiterals, header: headerOf(ctx) };
}

/** Answers a request no operation takes: `404`, `405` with `Allow`, or `OPTIONS`' `204` with `Allow`. */
export function answerWithoutOperation(ctx: Context, found: Exclude<Route, { kind: 'operation' }>): void {
  if (found.kind === 'none') throw new HttpError('not_found', `No route ${ctx.method} ${ctx.path}.`);
  if (ctx.method !== 'OPTIONS')
    throw new HttpError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}: use ${found.allow}.`, { Allow: found.allow });
  ctx.set('Allow', found.allow);
  ctx.status = 204;
}
