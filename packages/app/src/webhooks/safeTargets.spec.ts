import { describe, expect, it } from '@jest/globals';
import { SafeWebhookTargets, unsafeAddress } from './safeTargets.js';

describe('safe webhook targets', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    'fe80::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::',
  ])('refuses %s', (address) => {
    expect(unsafeAddress(address)).toMatch(new RegExp(`^${address.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is a`));
  });

  it.each(['93.184.215.14', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts the public address %s', (address) => {
    expect(unsafeAddress(address)).toBeNull();
  });

  it('wants https and a public literal address, unless private targets are allowed', async () => {
    const safe = new SafeWebhookTargets(false);
    expect(await safe.problem('http://93.184.215.14/hooks')).toMatch(/must be https/);
    expect(await safe.problem('https://93.184.215.14/hooks')).toBeNull();
    expect(await safe.problem('https://[fd00::1]/hooks')).toMatch(/private or internal address: fd00::1 is a uniqueLocal address/);
    expect(await new SafeWebhookTargets(true).problem('http://127.0.0.1:8080/hooks')).toBeNull();
  });
});
