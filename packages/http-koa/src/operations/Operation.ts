import type { Scope } from '@petstore/core';
import type { Context } from 'koa';
import type { ErrorCode } from '../errorStatus.js';
import type { HeaderName } from '../openapi/components.js';
import type { JsonSchema } from '../openapi/schemas.js';

/**
 * How a request is admitted before its operation runs: `counted` against the key's quota (AdmitRequest), as a
 * `usage-query` in a bucket of its own (AdmitUsageQuery), with the admin API's token (`admin-token`, no quota), or
 * `none` (no credential needed).
 */
export type Admission = 'counted' | 'usage-query' | 'admin-token' | 'none';

/**
 * A deprecated operation: every answer carries `Deprecation`, `Sunset` and a `Link` to the successor; from the
 * sunset on, it answers `410 gone`.
 */
export interface Deprecation {
  /** When the operation was deprecated (RFC 9745 `Deprecation: @<unix seconds>`). */
  since: Date;
  /** When it is removed (RFC 8594 `Sunset`): from this instant on, every request is answered `410 gone`. */
  sunset: Date;
  /** What to use instead, in the `gone` message: `use GET /pets with the status filter instead.` */
  advice: string;
  /** The successor's path under the API's base (`/pets`), sent as `Link: <base/pets>; rel="successor-version"`. */
  successor: string;
}

/** A parameter of the OpenAPI document (query, path or header), with the example tools send. */
export interface Parameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
  example: unknown;
}

/** A success answer: its status, what it means, its headers beyond the common ones, its body's schema. */
export interface SuccessResponse {
  status: 200 | 201 | 202 | 204 | 304;
  description: string;
  headers?: readonly HeaderName[];
  body?: JsonSchema;
  example?: unknown;
}

/** What a request brings to an operation, as the router found it. */
export interface OperationRequest {
  /** Path parameters, percent-decoded. */
  params: Readonly<Record<string, string | undefined>>;
  /** Query parameters: text, or an array of texts when repeated. */
  query: Readonly<Record<string, string | string[]>>;
  /** The JSON body, read and checked when the operation declares one. */
  body: unknown;
  /** The source text of the body's top-level numbers, by key (see core's parseNewPet). */
  numberLiterals: ReadonlyMap<string, string>;
  /** A request header's value (name in lower case); a header sent more than once is refused (`bad_request`). */
  header(name: string): string | undefined;
}

/** Everything about an operation but its code: the router, the OpenAPI document and the edge's headers read it. */
interface OperationDescription<A extends Admission> {
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Under the API's prefix, in OpenAPI's template syntax: `/pets/{petId}`. */
  path: string;
  admission: A;
  /** The scope an admitted key must have (`pets:read`, `pets:write`); none: any valid key. */
  scope?: Scope;
  deprecated?: Deprecation;
  tag: string;
  summary: string;
  description: string;
  parameters?: readonly Parameter[];
  /**
   * A JSON request body of this schema (read, size-limited and checked before the operation runs), documented with the
   * schema's example; optional: may be empty.
   */
  requestBody?: {
    schema: JsonSchema & { example: unknown };
    description: string;
    optional?: true;
    /** The media types documented for it (default `application/json`); any JSON type (`+json`) is read. */
    mediaTypes?: readonly string[];
  };
  /** What the operation answers on success; the first is the usual one. */
  responses: readonly SuccessResponse[];
  /** The error codes the operation itself raises; those of admission, bodies and the edge are added. */
  errors: readonly ErrorCode[];
}

/** An operation declared once: its description, how it reads its input, and what it does with it. */
export interface OperationDeclaration<Input, A extends Admission = Admission> extends OperationDescription<A> {
  /** The validated input (core's readers and checks throw its ValidationError). */
  input(request: OperationRequest): Input;
  /** Answers the request. */
  handle(ctx: Context, input: Input): Promise<void> | void;
}

/** A declared operation, its input type erased: what the edge runs. */
export interface Operation<A extends Admission = Admission> extends OperationDescription<A> {
  run(ctx: Context, request: OperationRequest): Promise<void> | void;
}

/** An operation of the `/v1` interface: admitted with an API key, or with nothing. */
export type PetsOperation = Operation<Exclude<Admission, 'admin-token'>>;

/** An operation of the admin interface: admitted with the admin token, or with nothing. */
export type AdminOperation = Operation<'admin-token' | 'none'>;

export function defineOperation<Input, A extends Admission>({ input, handle, ...description }: OperationDeclaration<Input, A>): Operation<A> {
  return { ...description, run: (ctx, request) => handle(ctx, input(request)) };
}
