/** Codes only the HTTP transport produces; the domain's codes come from core. */
export type TransportErrorCode =
  | 'bad_request'
  | 'request_timeout'
  | 'request_header_too_large'
  | 'malformed_json'
  | 'not_found'
  | 'method_not_allowed'
  | 'gone'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'expectation_failed'
  | 'internal_error';

/**
 * An error the transport raises itself (bad JSON, unknown route, wrong method, ...), or a domain code the transport
 * decides alone (`unauthorized` for the admin API's token).
 */
export class HttpError extends Error {
  constructor(
    readonly code: TransportErrorCode | 'unauthorized',
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
