import { describe, expect, it } from '@jest/globals';
import { withoutSecrets } from './withoutSecrets.js';

describe('withoutSecrets', () => {
  it('hides the arguments of a refused AUTH or HELLO, in the error and in a cluster error last node error', () => {
    const refused = Object.assign(new Error('WRONGPASS'), { command: { name: 'auth', args: ['user', 's3cret'] } });
    const cluster = Object.assign(new Error('Failed to refresh slots cache.'), { lastNodeError: refused });
    expect(JSON.stringify({ ...withoutSecrets(cluster) })).not.toContain('s3cret');
    expect(refused.command.args).toEqual(['(hidden)']);
    const hello = Object.assign(new Error('WRONGPASS'), { command: { name: 'HELLO', args: ['3', 'AUTH', 'user', 's3cret'] } });
    expect(withoutSecrets(hello).command.args).toEqual(['(hidden)']);
  });

  it('keeps the arguments of other commands, which name keys and not secrets', () => {
    const failed = Object.assign(new Error('MOVED'), { command: { name: 'evalsha', args: ['sha', '1', 'petstore:rl:{key:k}'] } });
    expect(withoutSecrets(failed).command.args).toEqual(['sha', '1', 'petstore:rl:{key:k}']);
    expect(withoutSecrets('text')).toBe('text');
  });
});
