import { lookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { WebhookTargets } from '@petstore/core';
import ipaddr from 'ipaddr.js';

/**
 * Why webhooks may not go to `address`, or null: only public unicast addresses may receive them. Loopback, private,
 * link-local (the cloud metadata service at 169.254.169.254 among them), carrier-grade NAT, unique-local, multicast
 * and reserved ranges are refused; IPv4-mapped IPv6 is judged as the IPv4 address it carries, and every other IPv6
 * form that carries an IPv4 address is refused: IPv4-compatible (`::/96`, deprecated: `[::127.0.0.1]` reaches a URL
 * as `[::7f00:1]`), 6to4, Teredo, NAT64 and IPv4-translated (ipaddr.js' ranges).
 */
export function unsafeAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE)) return `${address} is an ipv4Compatible address`;
  const range = parsed.range();
  return range === 'unicast' ? null : `${address} is a ${range} address`;
}

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * A `lookup` for Node's HTTP client that resolves as usual and refuses unsafe addresses: checked as the connection
 * is made, so a name that resolved to a public address when the endpoint was created cannot be pointed at an
 * internal one later (DNS rebinding).
 */
export const safeLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const unsafe = addresses.map(({ address }) => unsafeAddress(address)).find((problem) => problem !== null);
    if (unsafe)
      return callback(
        Object.assign(new Error(`unsafe webhook target: ${hostname} resolves to ${unsafe.split(' is ')[0]!}`), { code: 'EUNSAFE' }),
        '',
        0,
      );
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    return callback(null, first!.address, first!.family);
  });
};

/**
 * WebhookTargets by the rules above: `https` only, and a host that is, or resolves only to, public addresses. With
 * `allowPrivate` (WEBHOOK_ALLOW_PRIVATE_TARGETS, for development and tests) any address and plain `http` too.
 */
export class SafeWebhookTargets implements WebhookTargets {
  constructor(private readonly allowPrivate: boolean) {}

  async problem(text: string): Promise<string | null> {
    const url = new URL(text);
    if (this.allowPrivate) return null;
    if (url.protocol !== 'https:') return 'url must be https (plain http only with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)';
    const host = bareHost(url.hostname);
    if (ipaddr.isValid(host)) return prefixed(unsafeAddress(host));
    const addresses = await new Promise<string[]>((resolve) =>
      lookup(host, { all: true }, (error, found) => resolve(error ? [] : found.map((a) => a.address))),
    );
    if (addresses.length === 0) return `url's host ${host} does not resolve`;
    return prefixed(addresses.map(unsafeAddress).find((problem) => problem !== null) ?? null);
  }
}

const prefixed = (problem: string | null) => (problem === null ? null : `url must not point to a private or internal address: ${problem}`);
