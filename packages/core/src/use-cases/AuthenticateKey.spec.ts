import { beforeEach, describe, expect, it } from '@jest/globals';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';
import { AuthenticateKey } from './AuthenticateKey.js';
import { IssueApiKey } from './IssueApiKey.js';
import { RevokeApiKey } from './RevokeApiKey.js';
import { RotateApiKey } from './RotateApiKey.js';

describe('AuthenticateKey', () => {
  let ports: InMemoryPorts;
  let authenticate: AuthenticateKey;

  beforeEach(() => {
    ports = inMemoryPorts();
    authenticate = new AuthenticateKey(ports.keys);
  });

  it('returns the record of a known key', async () => {
    const { key, secret } = await new IssueApiKey(ports.keys, ports.clock).execute({ plan: 'pro', name: 'shelter' });
    expect(await authenticate.execute(secret)).toEqual(key);
  });

  it.each([undefined, ''])('rejects a missing key (%p) as missing', async (secret) => {
    await expect(authenticate.execute(secret)).rejects.toMatchObject({ code: 'unauthorized', reason: 'missing' });
  });

  it.each(['abc', 'pst_short', `pst_${'a'.repeat(42)}!`, `sk_${'a'.repeat(43)}`])('rejects the malformed key %p', async (secret) => {
    await expect(authenticate.execute(secret)).rejects.toMatchObject({ code: 'unauthorized', reason: 'invalid' });
  });

  it('rejects an unknown, well-formed key', async () => {
    await expect(authenticate.execute(`pst_${'a'.repeat(43)}`)).rejects.toMatchObject({ code: 'unauthorized', reason: 'invalid' });
  });

  it('rejects a revoked key', async () => {
    const { key, secret } = await new IssueApiKey(ports.keys, ports.clock).execute({ plan: 'free' });
    await new RevokeApiKey(ports.keys, ports.clock).execute(key.id);
    await expect(authenticate.execute(secret)).rejects.toMatchObject({ code: 'unauthorized', reason: 'invalid' });
  });

  it('rejects the old secret of a rotated key and accepts the new one', async () => {
    const { key, secret } = await new IssueApiKey(ports.keys, ports.clock).execute({ plan: 'free' });
    const rotated = await new RotateApiKey(ports.keys).execute(key.id);
    await expect(authenticate.execute(secret)).rejects.toMatchObject({ code: 'unauthorized' });
    expect(await authenticate.execute(rotated.secret)).toEqual(key);
  });
});
