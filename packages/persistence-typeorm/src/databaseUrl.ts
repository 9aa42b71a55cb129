export type DatabaseTarget =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string };

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

/** The URL without its password, for messages and logs. */
export function redact(value: string): string {
  return value.replace(/^(\w+:\/\/[^:/@]*:)[^@]*@/, '$1***@');
}
