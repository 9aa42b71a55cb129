/**
 * The Content-Type of every JSON answer. No `charset`: JSON is UTF-8 by definition and RFC 8259 defines no such
 * parameter for it, and tools that compare answers with the OpenAPI document's media type (Dredd) expect it bare.
 */
export const JSON_CONTENT_TYPE = 'application/json';
