import { describe, expect, it } from '@jest/globals';
import { parseDatabaseUrl, redact } from './databaseUrl.js';

describe('parseDatabaseUrl', () => {
  it.each([
    ['sqlite:./data/petstore.db', { kind: 'sqlite', path: './data/petstore.db' }],
    ['sqlite:/var/lib/petstore.db', { kind: 'sqlite', path: '/var/lib/petstore.db' }],
    ['sqlite::memory:', { kind: 'sqlite', path: ':memory:' }],
    ['postgres://user:pass@db:5432/petstore', { kind: 'postgres', url: 'postgres://user:pass@db:5432/petstore' }],
    ['postgresql://db/petstore?sslmode=require', { kind: 'postgres', url: 'postgresql://db/petstore?sslmode=require' }],
  ])('accepts %s', (url, target) => {
    expect(parseDatabaseUrl(url)).toEqual(target);
  });

  it.each(['', 'sqlite:', 'mysql://db/petstore', 'postgres://db', './petstore.db', 'file:petstore.db'])(
    'rejects %p naming the variable and the accepted forms',
    (url) => {
      expect(() => parseDatabaseUrl(url)).toThrow(
        /^DATABASE_URL ".*" is not supported: use sqlite:<path>, sqlite::memory: or postgres:\/\/user:pass@host:port\/db$/,
      );
    },
  );

  it('never repeats a password', () => {
    expect(() => parseDatabaseUrl('mysql://admin:hunter2@db/x')).toThrow('DATABASE_URL "mysql://admin:***@db/x"');
    expect(redact('postgres://u:p@h:1/d')).toBe('postgres://u:***@h:1/d');
    expect(redact('postgres://u:p@ss@h:1/d')).toBe('postgres://u:***@h:1/d');
    expect(redact('redis://:secret@cache:6379')).toBe('redis://:***@cache:6379');
    expect(redact('redis://tokenonly@cache:6379')).toBe('redis://***@cache:6379');
    expect(redact('connect failed for postgres://u:secret@db/x: timeout')).toBe(
      'connect failed for postgres://***@db/x: timeout'.replace('***', 'u:***'),
    );
    expect(redact('sqlite:./data/petstore.db')).toBe('sqlite:./data/petstore.db');
  });
});
