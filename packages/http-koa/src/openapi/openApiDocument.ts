import { ERROR_STATUS, type ErrorCode } from '../errorStatus.js';
import type { Operation, Parameter, SuccessResponse } from '../operations/Operation.js';
import { ERROR_DESCRIPTIONS, HEADERS, RATE_LIMIT_HEADERS, type HeaderName } from './components.js';
import { SCHEMAS } from './schemas.js';

type Json = Record<string, unknown>;

/**
 * Error codes an operation can answer beyond its own: from the edge (an unknown query parameter, a repeated header,
 * an unknown path or method, a request too slow or with headers too large, an unsupported `Expect`), from
 * admission, from reading a body.
 */
const EDGE_ERRORS: readonly ErrorCode[] = [
  'validation_error',
  'bad_request',
  'not_found',
  'method_not_allowed',
  'request_timeout',
  'expectation_failed',
  'request_header_too_large',
  'internal_error',
  'service_unavailable',
];
const ADMISSION_ERRORS: readonly ErrorCode[] = ['unauthorized', 'key_expired', 'key_disabled', 'rate_limited', 'key_banned'];
const BODY_ERRORS: readonly ErrorCode[] = ['malformed_json', 'payload_too_large', 'unsupported_media_type'];

/** Headers every error of this status carries beyond the common ones. */
const ERROR_HEADERS: Readonly<Record<number, readonly HeaderName[]>> = {
  401: ['WWW-Authenticate'],
  405: ['Allow'],
  429: ['Retry-After'],
  503: ['Retry-After'],
};

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Errors answered before admission, or when a dependency failed: no quota state to show. */
const WITHOUT_QUOTA = new Set([408, 417, 431, 503]);
/** Errors answered before or after admission (a missing `Host` header or a failed admission, or later). */
const QUOTA_SOMETIMES = new Set([400, 500]);

function headersOf(names: readonly HeaderName[], optional: readonly HeaderName[] = []): Json {
  return {
    ...Object.fromEntries(names.map((name) => [name, ref('headers', name)])),
    ...Object.fromEntries(optional.map((name) => [name, { ...HEADERS[name], required: false }])),
  };
}

/** The headers every answer of the operation carries: the request id, the quota's state, the deprecation notice. */
function commonHeaders(operation: Operation, status: number): Json {
  const quota = operation.admission === 'none' || WITHOUT_QUOTA.has(status) ? [] : RATE_LIMIT_HEADERS;
  const deprecation: HeaderName[] = operation.deprecated ? ['Deprecation', 'Sunset', 'Link'] : [];
  const sometimes = QUOTA_SOMETIMES.has(status);
  return headersOf(['X-Request-Id', ...(sometimes ? [] : quota), ...deprecation, ...(ERROR_HEADERS[status] ?? [])], sometimes ? quota : []);
}

function successResponse(operation: Operation, response: SuccessResponse): Json {
  return {
    description: response.description,
    headers: { ...commonHeaders(operation, response.status), ...headersOf(response.headers ?? []) },
    ...(response.body && { content: { 'application/json': { schema: response.body, example: response.example ?? response.body['example'] } } }),
  };
}

function errorResponse(operation: Operation, status: number, codes: readonly ErrorCode[]): Json {
  return {
    description: ERROR_DESCRIPTIONS[status] ?? `Error ${status}.`,
    headers: commonHeaders(operation, status),
    content: {
      'application/json': {
        schema: { allOf: [SCHEMAS['Error'], { properties: { code: { enum: codes } } }] },
        example: { code: codes[0], message: 'What went wrong, for people.', status },
      },
    },
  };
}

/**
 * The answers to a path no operation has, or to a method its path does not answer: every operation may get them
 * (its client mistyped the URL or the method), so they are written once and referred to.
 */
const ROUTING_ERRORS: Readonly<Record<number, string>> = { 404: 'NotFound', 405: 'MethodNotAllowed' };

function errorResponses(operation: Operation): Json {
  const codes = new Set<ErrorCode>([
    ...operation.errors,
    ...(operation.admission === 'none' ? [] : ADMISSION_ERRORS),
    ...(operation.scope ? (['insufficient_scope'] as const) : []),
    ...(operation.requestBody ? BODY_ERRORS : []),
    ...EDGE_ERRORS,
  ]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => {
      const shared = ROUTING_ERRORS[status] !== undefined && !operation.deprecated && !operation.errors.some((code) => ERROR_STATUS[code] === status);
      return [String(status), shared ? ref('responses', ROUTING_ERRORS[status]!) : errorResponse(operation, status, statusCodes)];
    }),
  );
}

/** The shared routing answers, as an ordinary counted operation on an unknown path would get them. */
function routingResponses(): Json {
  const anyOperation = { admission: 'counted' } as Operation;
  return Object.fromEntries(
    Object.entries(ROUTING_ERRORS).map(([status, name]) => [
      name,
      errorResponse(anyOperation, Number(status), [status === '404' ? 'not_found' : 'method_not_allowed']),
    ]),
  );
}

function operationObject(operation: Operation): Json {
  const { deprecated } = operation;
  const responses = Object.fromEntries(operation.responses.map((response) => [String(response.status), successResponse(operation, response)]));
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    description: operation.scope ? `${operation.description} Needs a key with the \`${operation.scope}\` scope.` : operation.description,
    ...(deprecated && { deprecated: true, 'x-sunset': deprecated.sunset.toISOString().slice(0, 10) }),
    ...(operation.admission === 'none' && { security: [] }),
    ...(operation.scope && { 'x-required-scope': operation.scope }),
    ...(operation.parameters && { parameters: operation.parameters }),
    ...(operation.requestBody && {
      requestBody: {
        required: true,
        description: operation.requestBody.description,
        content: { 'application/json': { schema: operation.requestBody.schema, example: operation.requestBody.example } },
      },
    }),
    responses: { ...responses, ...errorResponses(operation) },
  };
}

/** The same operation asked with HEAD: its answers' headers, without their bodies. */
function headObject(get: Json): Json {
  const responses = Object.fromEntries(
    Object.entries(get['responses'] as Record<string, Json>).map(([status, response]) => {
      if (typeof response['$ref'] === 'string') return [status, response];
      const { content: _content, ...withoutBody } = response;
      return [status, withoutBody];
    }),
  );
  return {
    ...get,
    operationId: `${String(get['operationId'])}Head`,
    summary: `${String(get['summary'])} (headers only)`,
    description: `The headers \`GET\` would answer with, without the body. ${String(get['description'])}`,
    responses,
  };
}

/** `OPTIONS` on a path: the methods it answers, with no key needed (a key, when sent, is checked and counted). */
function optionsObject(path: string, allow: string, pathParameters: readonly Parameter[]): Json {
  const name = path.replace(/[^A-Za-z0-9]+([A-Za-z0-9])?/g, (_, next: string | undefined) => (next ?? '').toUpperCase());
  return {
    operationId: `options${name}`,
    tags: ['meta'],
    summary: `The methods ${path} answers`,
    description:
      'Answers `204` with `Allow`; CORS preflights from allowed origins get their `Access-Control-*` headers. No key needed; a key, when sent, is checked and counted like any request.',
    security: [{}, { bearerAuth: [] }],
    ...(pathParameters.length > 0 && { parameters: pathParameters }),
    responses: {
      '204': {
        description: `No body. \`Allow: ${allow}\`.`,
        headers: { ...headersOf(['X-Request-Id', 'Allow']), ...headersOf([], RATE_LIMIT_HEADERS) },
      },
      ...Object.fromEntries(
        (['unauthorized', 'rate_limited'] as const).map((code) => [
          String(ERROR_STATUS[code]),
          errorResponse({ admission: 'counted' } as Operation, ERROR_STATUS[code], [code]),
        ]),
      ),
    },
  };
}

/** Writes each component schema once, and a `$ref` to it wherever else the very same object appears. */
function referToComponents(value: unknown, names: ReadonlyMap<unknown, string>, isDefinition = false): unknown {
  if (!isDefinition && names.has(value)) return ref('schemas', names.get(value)!);
  if (Array.isArray(value)) return value.map((item) => referToComponents(item, names));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, referToComponents(item, names)]));
}

export interface DocumentInfo {
  /** The absolute base URL clients use (`servers`). */
  publicBaseUrl: string;
  title: string;
  version: string;
  description: string;
  contact: { name: string; url: string };
  license: { name: string; identifier: string };
  tags: readonly { name: string; description: string }[];
}

/** The OpenAPI 3.1 document of these operations: built once, from their declarations alone. */
export function openApiDocument(operations: readonly Operation[], info: DocumentInfo): Json {
  const paths: Record<string, Json> = {};
  for (const operation of operations) {
    const item = (paths[operation.path] ??= {});
    item[operation.method.toLowerCase()] = operationObject(operation);
    if (operation.method === 'GET') item['head'] = headObject(item['get'] as Json);
  }
  for (const [path, item] of Object.entries(paths)) {
    const allow = [...Object.keys(item).map((method) => method.toUpperCase()), 'OPTIONS'].join(', ');
    const pathParameters = operations.find((op) => op.path === path)?.parameters?.filter((p) => p.in === 'path') ?? [];
    item['options'] = optionsObject(path, allow, pathParameters);
  }
  const names = new Map(Object.entries(SCHEMAS).map(([name, schema]) => [schema as unknown, name]));
  const schemas = Object.fromEntries(Object.entries(SCHEMAS).map(([name, schema]) => [name, referToComponents(schema, names, true)]));
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description, contact: info.contact, license: info.license },
    servers: [{ url: info.publicBaseUrl }],
    security: [{ bearerAuth: [] }],
    tags: info.tags,
    paths: referToComponents(paths, names),
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key, `pst_...`.' } },
      schemas,
      responses: referToComponents(routingResponses(), names),
      headers: HEADERS,
    },
  };
}
