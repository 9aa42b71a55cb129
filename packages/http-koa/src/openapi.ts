import { DEFAULT_USAGE_QUERIES_PER_MINUTE, GET_PET_SUNSET, LIST_LIMIT, MAX_ID, PET_STATUSES, PLANS } from '@petstore/core';
import { ERROR_STATUS } from './errorStatus.js';
import { MAX_BODY_BYTES } from './middleware/jsonBody.js';

const ref = (path: string) => ({ $ref: `#/components/${path}` });
const json = (schema: object) => ({ 'application/json': { schema } });

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': ref('headers/X-RateLimit-Limit'),
  'X-RateLimit-Remaining': ref('headers/X-RateLimit-Remaining'),
  'X-RateLimit-Reset': ref('headers/X-RateLimit-Reset'),
  'RateLimit-Policy': ref('headers/RateLimit-Policy'),
  RateLimit: ref('headers/RateLimit'),
  'X-Request-Id': ref('headers/X-Request-Id'),
};

const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description:
    'Entity tags from earlier `ETag`s (or `*`): when one matches (weak comparison), the answer is 304 without a body. A 304 counts against the rate limit like a 200.',
  schema: { type: 'string' },
};

function notModified(extraHeaders: Record<string, object> = {}) {
  return {
    description: 'Not modified: the `If-None-Match` tag is current. No body.',
    headers: { ...RATE_LIMIT_HEADERS, ETag: ref('headers/ETag'), ...extraHeaders },
  };
}

const DEPRECATION_HEADERS = { Deprecation: ref('headers/Deprecation'), Sunset: ref('headers/Sunset'), Link: ref('headers/Link') };

function errorResponse(description: string, codes: string[], extraHeaders: Record<string, object> = {}) {
  return {
    description,
    headers: { ...RATE_LIMIT_HEADERS, ...extraHeaders },
    content: json({ allOf: [ref('schemas/Error'), { properties: { code: { enum: codes } } }] }),
  };
}

/** The OpenAPI 3.1 description of exactly what this transport does, with `servers` set to the public base URL. */
export function createOpenApiDocument(publicBaseUrl: string): object {
  const sunsetDay = GET_PET_SUNSET.toISOString().slice(0, 10);
  const retryAfter = { 'Retry-After': ref('headers/Retry-After') };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Animal Adoption Store',
      version: '1.0.0',
      description:
        'Browse and add animals available for adoption. Every operation needs `Authorization: Bearer <API_KEY>`. ' +
        'Every response carries the rate-limit headers; unknown routes answer 404 and known routes with another ' +
        'method 405 (with `Allow`), both with the Error body.',
    },
    servers: [{ url: publicBaseUrl }],
    security: [{ bearerAuth: [] }],
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          summary: 'List animals, ascending by id, optionally of one status.',
          parameters: [
            {
              name: 'limit',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: LIST_LIMIT.min, maximum: LIST_LIMIT.max, default: LIST_LIMIT.default },
            },
            { name: 'status', in: 'query', required: false, schema: ref('schemas/PetStatus') },
            {
              name: 'cursor',
              in: 'query',
              required: false,
              description: 'Opaque; from the `Link: rel="next"` of the previous page.',
              schema: { type: 'string' },
            },
            IF_NONE_MATCH,
          ],
          responses: {
            '200': {
              description: 'One page of animals. When another page exists, `Link` points to it.',
              headers: { ...RATE_LIMIT_HEADERS, ETag: ref('headers/ETag'), Link: ref('headers/Link') },
              content: json(ref('schemas/Pets')),
            },
            '304': notModified({ Link: ref('headers/Link') }),
            '400': ref('responses/ValidationError'),
            '401': ref('responses/Unauthorized'),
            '429': ref('responses/TooManyRequests'),
            '500': ref('responses/InternalError'),
            '503': ref('responses/ServiceUnavailable'),
          },
        },
        post: {
          operationId: 'createPet',
          summary: 'Add an animal. Safe to retry with an Idempotency-Key.',
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              description: 'Scoped to the API key, kept 24 hours: a retry with the same key and body replays the first answer.',
              schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
            },
          ],
          requestBody: { required: true, content: json(ref('schemas/NewPet')) },
          responses: {
            '201': {
              description: 'The created animal, with its service-assigned id.',
              headers: { ...RATE_LIMIT_HEADERS, Location: ref('headers/Location'), 'Idempotent-Replayed': ref('headers/Idempotent-Replayed') },
              content: json(ref('schemas/Pet')),
            },
            '400': errorResponse(
              'Invalid body (`validation_error`, with `details`), invalid JSON or UTF-8 (`malformed_json`), or more than one `Authorization` header (`bad_request`).',
              ['validation_error', 'malformed_json', 'bad_request'],
            ),
            '401': ref('responses/Unauthorized'),
            '409': errorResponse('A request with this Idempotency-Key is still in flight.', ['idempotency_in_progress']),
            '413': errorResponse(`The body exceeds ${MAX_BODY_BYTES} bytes.`, ['payload_too_large']),
            '415': errorResponse('The body is not sent as UTF-8 JSON (another content type or charset), or with an unknown content encoding.', [
              'unsupported_media_type',
            ]),
            '422': errorResponse('This Idempotency-Key was used with a different body.', ['idempotency_key_reused']),
            '429': ref('responses/TooManyRequests'),
            '500': ref('responses/InternalError'),
            '503': ref('responses/ServiceUnavailable'),
          },
        },
      },
      '/pets/{petId}': {
        get: {
          operationId: 'getPet',
          deprecated: true,
          summary: 'Get an animal. Deprecated: removed on 2030-12-05; use GET /pets with status.',
          description:
            `Deprecated. Sunset: ${GET_PET_SUNSET.toUTCString()} (${sunsetDay}); from then on it answers 410 \`gone\`. ` +
            'Every answer carries `Deprecation`, `Sunset` and a `Link` to the successor, `GET /pets` with the `status` filter.',
          'x-sunset': sunsetDay,
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer', format: 'int64', minimum: 1 } }, IF_NONE_MATCH],
          responses: {
            '200': {
              description: 'The animal.',
              headers: { ...RATE_LIMIT_HEADERS, ETag: ref('headers/ETag'), ...DEPRECATION_HEADERS },
              content: json(ref('schemas/Pet')),
            },
            '304': notModified(DEPRECATION_HEADERS),
            '400': errorResponse(
              '`petId` is not a decimal integer (`validation_error`), or more than one `Authorization` header (`bad_request`).',
              ['validation_error', 'bad_request'],
              DEPRECATION_HEADERS,
            ),
            '401': ref('responses/Unauthorized'),
            '404': errorResponse('No animal has this id.', ['not_found'], DEPRECATION_HEADERS),
            '410': errorResponse('The operation has been removed (after its sunset).', ['gone'], DEPRECATION_HEADERS),
            '429': ref('responses/TooManyRequests'),
            '500': ref('responses/InternalError'),
            '503': ref('responses/ServiceUnavailable'),
          },
        },
      },
      '/rate_limit': {
        get: {
          operationId: 'getRateLimit',
          summary: "The calling key's plan, usage per window and ban, without spending any of its quota.",
          description:
            "Like GitHub's `GET /rate_limit`. Not counted against the key's quota and answered while the key is rate " +
            "limited or banned; the rate-limit headers show the key's quota as it stands. Queries are bounded per key " +
            `in a bucket of their own (${DEFAULT_USAGE_QUERIES_PER_MINUTE} a minute by default): beyond it, 429 with headers describing that bucket.`,
          responses: {
            '200': { description: 'The usage.', headers: RATE_LIMIT_HEADERS, content: json(ref('schemas/RateLimitUsage')) },
            '401': ref('responses/Unauthorized'),
            '429': ref('responses/TooManyRequests'),
            '500': ref('responses/InternalError'),
            '503': ref('responses/ServiceUnavailable'),
          },
        },
      },
      '/openapi.json': {
        get: {
          operationId: 'getOpenApiDocument',
          summary: 'This document.',
          responses: {
            '200': { description: 'The OpenAPI document.', headers: RATE_LIMIT_HEADERS, content: json({ type: 'object' }) },
            '401': ref('responses/Unauthorized'),
            '429': ref('responses/TooManyRequests'),
          },
        },
      },
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: `pst_` and 43 base64url characters.' } },
      schemas: {
        PetStatus: { type: 'string', enum: [...PET_STATUSES] },
        Pet: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'name', 'categoryId', 'status'],
          properties: {
            id: { type: 'integer', format: 'int64', minimum: 1, maximum: MAX_ID },
            name: { type: 'string', minLength: 1, maxLength: 100 },
            categoryId: { type: 'integer', format: 'int64', minimum: 1, maximum: MAX_ID },
            status: ref('schemas/PetStatus'),
          },
        },
        NewPet: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'categoryId'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S', description: 'No control characters.' },
            categoryId: { type: 'integer', format: 'int64', minimum: 1, maximum: MAX_ID },
            status: { ...ref('schemas/PetStatus'), description: 'Defaults to `available`.' },
          },
        },
        RateLimitUsage: {
          type: 'object',
          additionalProperties: false,
          required: ['keyId', 'plan', 'windows', 'bannedUntil'],
          properties: {
            keyId: { type: 'string', description: 'The id of the calling key (never its secret).' },
            plan: { type: 'string', enum: [...PLANS] },
            windows: {
              type: 'array',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['name', 'limit', 'used', 'remaining', 'reset'],
                properties: {
                  name: { type: 'string', enum: ['minute', 'day'] },
                  limit: { type: 'integer', minimum: 1 },
                  used: { type: 'integer', minimum: 0 },
                  remaining: { type: 'integer', minimum: 0 },
                  reset: { type: 'integer', description: 'Unix time (seconds) at which this window resets.' },
                },
              },
            },
            bannedUntil: { type: ['integer', 'null'], description: 'Unix time (seconds) at which a ban in force ends; null when not banned.' },
          },
        },
        Pets: { type: 'array', items: ref('schemas/Pet'), maxItems: LIST_LIMIT.max },
        Error: {
          type: 'object',
          additionalProperties: false,
          required: ['code', 'message', 'status'],
          properties: {
            code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
            message: { type: 'string' },
            status: { type: 'integer', enum: [...new Set(Object.values(ERROR_STATUS))] },
            details: {
              type: 'array',
              description: 'For `validation_error`: one entry per invalid field.',
              items: {
                type: 'object',
                additionalProperties: false,
                required: ['field', 'message'],
                properties: { field: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
      },
      responses: {
        ValidationError: errorResponse(
          'A query parameter is invalid, unknown or repeated (`validation_error`), or more than one `Authorization` header (`bad_request`).',
          ['validation_error', 'bad_request'],
        ),
        Unauthorized: errorResponse(
          'Missing or invalid API key. The rate-limit headers describe the per-address bucket of failed authentications.',
          ['unauthorized'],
          { 'WWW-Authenticate': ref('headers/WWW-Authenticate') },
        ),
        TooManyRequests: errorResponse(
          'Rate limit exceeded (`rate_limited`) or key temporarily banned (`key_banned`).',
          ['rate_limited', 'key_banned'],
          retryAfter,
        ),
        InternalError: errorResponse('Unexpected failure; no detail is given.', ['internal_error']),
        ServiceUnavailable: {
          description: 'A dependency is unavailable.',
          headers: { ...retryAfter, 'X-Request-Id': ref('headers/X-Request-Id') },
          content: json(ref('schemas/Error')),
        },
        NotFound: errorResponse('Unknown route.', ['not_found']),
        MethodNotAllowed: errorResponse('Known route, other method.', ['method_not_allowed'], { Allow: ref('headers/Allow') }),
      },
      headers: {
        'X-RateLimit-Limit': { required: true, description: 'Requests allowed in the binding window.', schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { required: true, description: 'Requests left in the binding window.', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { required: true, description: 'Unix time (seconds) at which the binding window resets.', schema: { type: 'integer' } },
        'RateLimit-Policy': {
          required: true,
          description: 'IETF draft: every window, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`.',
          schema: { type: 'string' },
        },
        RateLimit: { required: true, description: 'IETF draft: remaining and seconds to reset per window.', schema: { type: 'string' } },
        'X-Request-Id': { required: true, description: 'Echo of a sane incoming id, or a new one.', schema: { type: 'string' } },
        'Retry-After': { required: true, description: 'Whole seconds to wait.', schema: { type: 'integer', minimum: 1 } },
        'WWW-Authenticate': { required: true, schema: { type: 'string' } },
        Allow: { required: true, schema: { type: 'string' } },
        Location: { required: true, description: 'URL of the created animal.', schema: { type: 'string', format: 'uri' } },
        'Idempotent-Replayed': {
          required: false,
          description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.',
          schema: { type: 'string', enum: ['true'] },
        },
        ETag: {
          required: true,
          description: 'Strong entity tag of this representation, the same on every instance: send it back in `If-None-Match`.',
          schema: { type: 'string' },
        },
        Link: { required: false, description: '`<url>; rel="next"` when another page exists.', schema: { type: 'string' } },
        Deprecation: { required: true, description: 'RFC 9745: `@<unix seconds>`.', schema: { type: 'string' } },
        Sunset: { required: true, description: 'RFC 8594: `Thu, 05 Dec 2030 00:00:00 GMT`.', schema: { type: 'string' } },
      },
    },
  };
}
