import { beforeEach, describe, expect, it } from '@jest/globals';
import { inMemoryPorts, type InMemoryPorts } from '../testing/inMemoryPorts.js';
import { AdmitRequest } from './AdmitRequest.js';
import { AuthenticateCaller } from './AuthenticateCaller.js';
import { AuthenticateKey } from './AuthenticateKey.js';
import { EnforceRateLimit } from './EnforceRateLimit.js';
import { IssueApiKey } from './IssueApiKey.js';
import { RefundRequest } from './RefundRequest.js';

describe('AdmitRequest', () => {
  let ports: InMemoryPorts;
  let admit: AdmitRequest;

  beforeEach(() => {
    ports = inMemoryPorts('2026-06-01T12:00:00Z');
    const enforce = new EnforceRateLimit(ports.rateLimits, ports.clock);
    admit = new AdmitRequest(
      new AuthenticateCaller(new AuthenticateKey(ports.keys), enforce, 3),
      enforce,
      new RefundRequest(ports.rateLimits, ports.clock),
    );
  });

  it('admits a valid key and counts it against its plan', async () => {
    const { key, secret } = await new IssueApiKey(ports.keys, ports.clock).execute({ plan: 'pro' });
    expect(await admit.execute({ secret, clientAddress: '10.0.0.1' })).toMatchObject({ key, rateLimit: { limit: 300, remaining: 299 } });
  });

  it('uses the custom limits of an enterprise key', async () => {
    const { secret } = await new IssueApiKey(ports.keys, ports.clock).execute({ plan: 'enterprise', perMinute: 2, perDay: 5 });
    await admit.execute({ secret, clientAddress: 'a' });
    expect(await admit.execute({ secret, clientAddress: 'a' })).toMatchObject({ rateLimit: { limit: 2, remaining: 0 } });
    await expect(admit.execute({ secret, clientAddress: 'a' })).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('counts failed authentications per address and attaches that bucket to the error', async () => {
    await expect(admit.execute({ secret: undefined, clientAddress: '10.0.0.2' })).rejects.toMatchObject({
      code: 'unauthorized',
      rateLimit: { limit: 3, remaining: 2 },
    });
    await admit.execute({ secret: 'bad', clientAddress: '10.0.0.2' }).catch(() => undefined);
    await admit.execute({ secret: 'bad', clientAddress: '10.0.0.2' }).catch(() => undefined);
    await expect(admit.execute({ secret: 'bad', clientAddress: '10.0.0.2' })).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(admit.execute({ secret: 'bad', clientAddress: '10.0.0.3' })).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('does not count a successful authentication against the address', async () => {
    const { secret } = await new IssueApiKey(ports.keys, ports.clock).execute({ plan: 'free' });
    for (let i = 0; i < 5; i++) await admit.execute({ secret, clientAddress: '10.0.0.4' });
    await expect(admit.execute({ secret: undefined, clientAddress: '10.0.0.4' })).rejects.toMatchObject({
      code: 'unauthorized',
      rateLimit: { remaining: 2 },
    });
  });

  it('gives back what an admission counted when it is released (the request failed because a dependency was down)', async () => {
    const { secret } = await new IssueApiKey(ports.keys, ports.clock).execute({ plan: 'enterprise', perMinute: 2, perDay: 5 });
    await admit.execute({ secret, clientAddress: 'a' });
    const second = await admit.execute({ secret, clientAddress: 'a' });
    await expect(admit.execute({ secret, clientAddress: 'a' })).rejects.toMatchObject({ code: 'rate_limited' });
    await second.release();
    expect(await admit.execute({ secret, clientAddress: 'a' })).toMatchObject({
      rateLimit: { remaining: 0, windows: [{ remaining: 0 }, { remaining: 3 }] },
    });
  });

  it('releases into the windows it counted in, never into the next minute', async () => {
    ports.clock.set('2026-06-01T12:00:59.900Z');
    const { secret } = await new IssueApiKey(ports.keys, ports.clock).execute({ plan: 'enterprise', perMinute: 5, perDay: 100 });
    const before = await admit.execute({ secret, clientAddress: 'a' });
    ports.clock.set('2026-06-01T12:01:00.100Z');
    await admit.execute({ secret, clientAddress: 'a' });
    await before.release();
    expect(await admit.execute({ secret, clientAddress: 'a' })).toMatchObject({ rateLimit: { windows: [{ remaining: 3 }, { remaining: 98 }] } });
  });
});
