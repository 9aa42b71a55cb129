import { MAX_BODY_BYTES } from '../middleware/jsonBody.js';

interface HeaderObject {
  required: boolean;
  description: string;
  schema: Readonly<Record<string, unknown>>;
  example: string | number;
}

/** Every response header the API sends, as the document's `components.headers`. */
export const HEADERS = {
  'X-RateLimit-Limit': { required: true, description: 'Requests allowed in the binding window.', schema: { type: 'integer' }, example: 60 },
  'X-RateLimit-Remaining': { required: true, description: 'Requests left in the binding window.', schema: { type: 'integer' }, example: 59 },
  'X-RateLimit-Reset': {
    required: true,
    description: 'Unix time (seconds) at which the binding window resets.',
    schema: { type: 'integer' },
    example: 1780315260,
  },
  'RateLimit-Policy': {
    required: true,
    description: 'IETF draft (draft-ietf-httpapi-ratelimit-headers): every window of the quota.',
    schema: { type: 'string' },
    example: '"minute";q=60;w=60, "day";q=1000;w=86400',
  },
  RateLimit: {
    required: true,
    description: 'IETF draft: remaining requests and seconds to reset, per window.',
    schema: { type: 'string' },
    example: '"minute";r=59;t=42, "day";r=999;t=40242',
  },
  'X-Request-Id': {
    required: true,
    description: 'Echo of a sane incoming `X-Request-Id`, or a new one: quote it when reporting a problem.',
    schema: { type: 'string' },
    example: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f',
  },
  'Retry-After': { required: true, description: 'Whole seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 }, example: 42 },
  'WWW-Authenticate': {
    required: true,
    description: 'The scheme to use (RFC 6750), and why the credential was refused.',
    schema: { type: 'string' },
    example: 'Bearer realm="petstore"',
  },
  Allow: { required: true, description: 'The methods this path answers.', schema: { type: 'string' }, example: 'GET, HEAD, POST, OPTIONS' },
  Location: {
    required: true,
    description: 'URL of the created animal.',
    schema: { type: 'string', format: 'uri' },
    example: 'https://api.example.com/v1/pets/1',
  },
  'Idempotent-Replayed': {
    required: false,
    description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
    example: 'true',
  },
  ETag: {
    required: true,
    description:
      "Strong entity tag of this representation, the same on every instance; it changes with every change to what it shows. Send it back in `If-None-Match` (reads) or `If-Match` (changes); on a 412, the animal's current tag.",
    schema: { type: 'string' },
    example: '"k3v9XxYc2dGq1eWf0aZbQw"',
  },
  Link: {
    required: false,
    description: '`<url>; rel="next"` when another page exists; on a deprecated operation, also its `rel="successor-version"`.',
    schema: { type: 'string' },
    example: '<https://api.example.com/v1/pets?limit=20&cursor=YzEuMjAuYWJj>; rel="next"',
  },
  Deprecation: { required: true, description: 'RFC 9745: when the operation was deprecated.', schema: { type: 'string' }, example: '@1767225600' },
  Sunset: {
    required: true,
    description: 'RFC 8594: when the operation is removed.',
    schema: { type: 'string' },
    example: 'Thu, 05 Dec 2030 00:00:00 GMT',
  },
} as const satisfies Record<string, HeaderObject>;

export type HeaderName = keyof typeof HEADERS;

/** The headers of every answer of an admitted request (the quota's state). */
export const RATE_LIMIT_HEADERS: readonly HeaderName[] = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
];

/** What each error status means, for the document's error answers. */
export const ERROR_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'The request is invalid: `validation_error` (with `details`), `malformed_json`, or `bad_request` (a repeated `Authorization` or `Host` header).',
  401: 'Missing or invalid (`unauthorized`), expired (`key_expired`) or disabled (`key_disabled`) API key. The rate-limit headers describe the per-address bucket of failed authentications.',
  403: "The key lacks the operation's scope (`insufficient_scope`; `WWW-Authenticate` names it). Counted against the quota.",
  404: 'No such path (a mistyped URL), or no such resource: `not_found`.',
  405: 'The path exists, but does not answer this method: `Allow` lists those it answers.',
  408: 'The request did not arrive in time (the connection is closed).',
  409: 'The change is not allowed from the current status (`invalid_transition`, naming it and the statuses allowed next), or a request with this Idempotency-Key is still in flight (`idempotency_in_progress`).',
  410: 'The operation has been removed (after its sunset).',
  412: 'The animal has changed since the `If-Match` tag (`precondition_failed`): `ETag` is its current tag.',
  413: `The body exceeds ${MAX_BODY_BYTES} bytes (after decompression).`,
  415: 'The body is not sent as UTF-8 JSON (another content type or charset), or with an unknown content encoding.',
  417: 'An `Expect` other than `100-continue`.',
  422: 'This Idempotency-Key was used with a different body.',
  429: 'Rate limit exceeded (`rate_limited`) or key temporarily banned (`key_banned`): wait `Retry-After` seconds.',
  431: 'The request headers are too large (16 KiB at most).',
  500: 'Unexpected failure; no detail is given.',
  503: 'A dependency (database or rate-limit store) is unavailable: retry after `Retry-After` seconds.',
};
