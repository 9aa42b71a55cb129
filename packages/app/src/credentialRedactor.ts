import { API_KEY_PREFIX } from '@petstore/core';

const REDACTED = 'REDACTED';

/**
 * Query parameters whose value is a credential whatever it looks like, compared without case: the usual names for
 * a token or key, and the ones OpenTelemetry's http instrumentation redacts by default (signed cloud URLs).
 */
const CREDENTIAL_PARAMETERS = new Set([
  'access_token',
  'token',
  'key',
  'api_key',
  'apikey',
  'api-key',
  'password',
  'secret',
  'sig',
  'signature',
  'awsaccesskeyid',
  'x-goog-signature',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
]);

/** Takes credentials out of a request's path and query before they are logged or exported in a span. */
export interface CredentialRedactor {
  /** The path with every segment that holds a credential replaced by `REDACTED`. */
  path(path: string): string;
  /** The query (without `?`) with the value of every credential parameter, and every credential value, replaced. */
  query(query: string): string;
}

/** Percent-decoded (`+` as a space, as in a form), or the text as it is when it is not valid percent-encoding. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/**
 * A credential is an API key (anything with the `pst_` prefix: a mistyped key is still most of one) or one of
 * `secrets` (the admin token), found in the percent-decoded text.
 */
export function credentialRedactor(secrets: readonly string[]): CredentialRedactor {
  const known = secrets.filter((secret) => secret !== '');
  const holdsCredential = (text: string) => text.includes(API_KEY_PREFIX) || known.some((secret) => text.includes(secret));
  // The common case, a path or query with nothing encoded and no credential, is answered without splitting it.
  const mayHoldCredential = (text: string) => text.includes('%') || text.includes('+') || holdsCredential(text);

  const redactPair = (pair: string): string => {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    if (holdsCredential(decoded(name))) return REDACTED;
    if (equals < 0) return pair;
    const value = pair.slice(equals + 1);
    return CREDENTIAL_PARAMETERS.has(decoded(name).toLowerCase()) || holdsCredential(decoded(value)) ? `${name}=${REDACTED}` : pair;
  };

  return {
    path: (path) =>
      mayHoldCredential(path)
        ? path
            .split('/')
            .map((segment) => (holdsCredential(decoded(segment)) ? REDACTED : segment))
            .join('/')
        : path,
    query: (query) => (query === '' ? query : query.split('&').map(redactPair).join('&')),
  };
}
