export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export const DATABASE_URL_FORMS = 'sqlite:<path>, sqlite::memory: or postgres://user:pass@host:port/db';

/** Reads a DATABASE_URL; throws an Error naming the variable and the accepted forms for anything else. */
export function parseDatabaseUrl(value: string): DatabaseTarget {
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length);
    if (path !== '') return { kind: 'sqlite', path };
  } else if (/^postgres(ql)?:\/\/[^/]+\/[^/?#]+/.test(value)) {
    return { kind: 'postgres', url: value };
  }
  throw new Error(`DATABASE_URL "${redact(value)}" is not supported: use ${DATABASE_URL_FORMS}`);
}

// scheme://user:password@ or scheme://token@, wherever it appears; the password runs to the last @ of the word, so
// an unencoded @ or / in it is hidden too.
const CREDENTIALS = /([a-z][a-z0-9+.-]*:\/\/)([^\s:@/]*)(:\S*)?@/gi;

/**
 * Text without the credentials of any URL in it (`postgres://u:***@db/x`, `redis://***@cache`), for messages and
 * logs. A user name followed by a password is kept; a lone user part may be a token and is hidden.
 */
export function redact(value: string): string {
  return value.replace(CREDENTIALS, (_match, scheme: string, user: string, password: string | undefined) =>
    password === undefined ? `${scheme}***@` : `${scheme}${user}:***@`,
  );
}
