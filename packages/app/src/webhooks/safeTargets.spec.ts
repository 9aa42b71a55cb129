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
    // IPv4-compatible, as a URL writes [::127.0.0.1] and [::10.0.0.1]; also public ones (deprecated, never routed).
    '::7f00:1',
    '::a00:1',
    '::808:808',
    // 6to4, NAT64, IPv4-translated and Teredo forms of 10.0.0.1.
    '2002:a00:1::',
    '64:ff9b::a00:1',
    '::ffff:0:a00:1',
    '2001:0:4136:e378:8000:63bf:f5ff:fffe',
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
    expect(await safe.problem('https://[::127.0.0.1]/hooks')).toMatch(/private or internal address: ::7f00:1 is an ipv4Compatible address/);
    expect(await new SafeWebhookTargets(true).problem('http://127.0.0.1:8080/hooks')).toBeNull();
  });
});
