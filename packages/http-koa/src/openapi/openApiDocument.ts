import { ERROR_STATUS, type ErrorCode } from '../errorStatus.js';
import type { Admission, Operation, Parameter, SuccessResponse } from '../operations/Operation.js';
import { ERROR_DESCRIPTIONS, HEADERS, RATE_LIMIT_HEADERS, type HeaderName } from './components.js';
import { ErrorSchema, type JsonSchema } from './schemas.js';

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
const KEY_ERRORS: readonly ErrorCode[] = ['unauthorized', 'key_expired', 'key_disabled', 'rate_limited', 'key_banned'];
const ADMISSION_ERRORS: Readonly<Record<Admission, readonly ErrorCode[]>> = {
  counted: KEY_ERRORS,
  'usage-query': KEY_ERRORS,
  'admin-token': ['unauthorized'],
  none: [],
};
const BODY_ERRORS: readonly ErrorCode[] = ['malformed_json', 'payload_too_large', 'unsupported_media_type'];

/** Headers every error of this status carries beyond the common ones. */
const ERROR_HEADERS: Readonly<Record<number, readonly HeaderName[]>> = {
  401: ['WWW-Authenticate'],
  403: ['WWW-Authenticate'],
  405: ['Allow'],
  412: ['ETag'],
  429: ['Retry-After'],
  503: ['Retry-After'],
};

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Errors the server answers before the request reaches the API's routes: no quota state, no deprecation notice. */
const BEFORE_ROUTING = new Set([408, 417, 431]);
/** Errors answered before admission, or when a dependency failed: no quota state to show. */
const WITHOUT_QUOTA = new Set([...BEFORE_ROUTING, 503]);
/** Errors answered before or after routing and admission (a missing `Host` header or a failed admission, or later). */
const QUOTA_SOMETIMES = new Set([400, 500]);

function headersOf(names: readonly HeaderName[], optional: readonly HeaderName[] = []): Json {
  return {
    ...Object.fromEntries(names.map((name) => [name, ref('headers', name)])),
    ...Object.fromEntries(optional.map((name) => [name, { ...HEADERS[name], required: false }])),
  };
}

const hasQuota = (admission: Admission) => admission === 'counted' || admission === 'usage-query';

/** The headers every answer of the operation carries: the request id, the quota's state, the deprecation notice. */
function commonHeaders(operation: Pick<Operation, 'admission' | 'deprecated'>, status: number): Json {
  const quota = !hasQuota(operation.admission) || WITHOUT_QUOTA.has(status) ? [] : RATE_LIMIT_HEADERS;
  const deprecation: HeaderName[] = operation.deprecated && !BEFORE_ROUTING.has(status) ? ['Deprecation', 'Sunset', 'Link'] : [];
  const sometimes = QUOTA_SOMETIMES.has(status);
  return headersOf(
    ['X-Request-Id', ...(sometimes ? [] : [...quota, ...deprecation]), ...(ERROR_HEADERS[status] ?? [])],
    sometimes ? [...quota, ...deprecation] : [],
  );
}

function successResponse(operation: Operation, response: SuccessResponse): Json {
  return {
    description: response.description,
    headers: { ...commonHeaders(operation, response.status), ...headersOf(response.headers ?? []) },
    ...(response.body && { content: { 'application/json': { schema: response.body, example: response.example ?? response.body['example'] } } }),
  };
}

/** What each error status means in this document. */
type Descriptions = Readonly<Record<number, string>>;

function errorResponse(
  operation: Pick<Operation, 'admission' | 'deprecated'>,
  status: number,
  codes: readonly ErrorCode[],
  descriptions: Descriptions,
): Json {
  return {
    description: descriptions[status] ?? `Error ${status}.`,
    headers: commonHeaders(operation, status),
    content: {
      'application/json': {
        schema: { allOf: [ErrorSchema, { properties: { code: { enum: codes } } }] },
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

function errorResponses(operation: Operation, descriptions: Descriptions): Json {
  const codes = new Set<ErrorCode>([
    ...operation.errors,
    ...ADMISSION_ERRORS[operation.admission],
    ...(operation.scope ? (['insufficient_scope'] as const) : []),
    ...(operation.requestBody ? BODY_ERRORS : []),
    ...EDGE_ERRORS,
  ]);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => {
      // A 405 is the path's answer, never the operation's: no deprecation notice even on a deprecated operation.
      const routed = status === 405 || !operation.deprecated;
      const shared = ROUTING_ERRORS[status] !== undefined && routed && !operation.errors.some((code) => ERROR_STATUS[code] === status);
      return [String(status), shared ? ref('responses', ROUTING_ERRORS[status]!) : errorResponse(operation, status, statusCodes, descriptions)];
    }),
  );
}

/** The shared routing answers, as a request to an unknown path is admitted before it gets them. */
function routingResponses(routing: RoutingAdmission, descriptions: Descriptions): Json {
  return Object.fromEntries(
    Object.entries(ROUTING_ERRORS).map(([status, name]) => [
      name,
      errorResponse({ admission: routing }, Number(status), [status === '404' ? 'not_found' : 'method_not_allowed'], descriptions),
    ]),
  );
}

function operationObject(operation: Operation, descriptions: Descriptions): Json {
  const { deprecated, requestBody: body } = operation;
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
    ...(body && {
      requestBody: {
        required: true,
        description: body.description,
        content: Object.fromEntries(
          (body.mediaTypes ?? ['application/json']).map((type) => [type, { schema: body.schema, example: body.schema.example }]),
        ),
      },
    }),
    responses: { ...responses, ...errorResponses(operation, descriptions) },
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

/**
 * `OPTIONS` on a path: the methods it answers. On the `/v1` interface no key is needed (a key, when sent, is checked
 * and counted); on the admin interface the token is, as everywhere there.
 */
function optionsObject(
  path: string,
  allow: string,
  pathParameters: readonly Parameter[],
  routing: RoutingAdmission,
  descriptions: Descriptions,
): Json {
  const name = path.replace(/[^A-Za-z0-9]+([A-Za-z0-9])?/g, (_, next: string | undefined) => (next ?? '').toUpperCase());
  const codes = ADMISSION_ERRORS[routing].filter((code) => code === 'unauthorized' || code === 'rate_limited');
  return {
    operationId: `options${name}`,
    tags: ['meta'],
    summary: `The methods ${path} answers`,
    description:
      routing === 'counted'
        ? 'Answers `204` with `Allow`; CORS preflights from allowed origins get their `Access-Control-*` headers. No key needed; a key, when sent, is checked and counted like any request.'
        : 'Answers `204` with `Allow`.',
    ...(routing === 'counted' && { security: [{}, { bearerAuth: [] }] }),
    ...(pathParameters.length > 0 && { parameters: pathParameters }),
    responses: {
      '204': {
        description: `No body. \`Allow: ${allow}\`.`,
        headers: { ...headersOf(['X-Request-Id', 'Allow']), ...headersOf([], hasQuota(routing) ? RATE_LIMIT_HEADERS : []) },
      },
      ...Object.fromEntries(
        codes.map((code) => [String(ERROR_STATUS[code]), errorResponse({ admission: routing }, ERROR_STATUS[code], [code], descriptions)]),
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

/** How a request to a path or method no operation has is admitted before it is answered 404 or 405. */
type RoutingAdmission = Extract<Admission, 'counted' | 'admin-token'>;

export interface DocumentInfo {
  /** The absolute base URL clients use (`servers`). */
  publicBaseUrl: string;
  /** The component schemas the operations use, by name: each is written once and referred to elsewhere. */
  schemas: Readonly<Record<string, JsonSchema>>;
  /** What the bearer credential is (the security scheme's description). */
  credential: string;
  routing: RoutingAdmission;
  /** What error statuses mean where this interface differs from the `/v1` one. */
  errorDescriptions?: Descriptions;
  title: string;
  version: string;
  description: string;
  /** The tags of the interface's operations; `meta` (the document itself, `OPTIONS`) is added. */
  tags: readonly Tag[];
}

type Tag = { name: string; description: string };

/** The tag of what every document has: its own operation and `OPTIONS` on each path. */
const META_TAG: Tag = { name: 'meta', description: 'This description.' };
/** Who publishes every interface of the store. */
const CONTACT = { name: 'The pet store team', url: 'https://github.com/petstore-example/petstore' };
const LICENSE = { name: 'MIT', identifier: 'MIT' };

/** The OpenAPI 3.1 document of these operations: built once, from their declarations alone. */
export function openApiDocument(operations: readonly Operation[], info: DocumentInfo): Json {
  const descriptions = { ...ERROR_DESCRIPTIONS, ...info.errorDescriptions };
  const paths: Record<string, Json> = {};
  for (const operation of operations) {
    const item = (paths[operation.path] ??= {});
    item[operation.method.toLowerCase()] = operationObject(operation, descriptions);
    if (operation.method === 'GET') item['head'] = headObject(item['get'] as Json);
  }
  for (const [path, item] of Object.entries(paths)) {
    const allow = [...Object.keys(item).map((method) => method.toUpperCase()), 'OPTIONS'].join(', ');
    const pathParameters = operations.find((op) => op.path === path)?.parameters?.filter((p) => p.in === 'path') ?? [];
    item['options'] = optionsObject(path, allow, pathParameters, info.routing, descriptions);
  }
  const names = new Map(Object.entries(info.schemas).map(([name, schema]) => [schema as unknown, name]));
  const schemas = Object.fromEntries(Object.entries(info.schemas).map(([name, schema]) => [name, referToComponents(schema, names, true)]));
  const responses = routingResponses(info.routing, descriptions);
  // Only the headers some answer refers to: an unused component is a lint warning in every OpenAPI tool.
  const referred = JSON.stringify([paths, responses]);
  const headers = Object.fromEntries(Object.entries(HEADERS).filter(([name]) => referred.includes(`"#/components/headers/${name}"`)));
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description, contact: CONTACT, license: LICENSE },
    servers: [{ url: info.publicBaseUrl }],
    security: [{ bearerAuth: [] }],
    tags: [...info.tags, META_TAG],
    paths: referToComponents(paths, names),
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: info.credential } },
      schemas,
      responses: referToComponents(responses, names),
      headers,
    },
  };
}
