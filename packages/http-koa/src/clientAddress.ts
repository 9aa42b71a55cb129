import { isIP } from 'node:net';
import type { Context } from 'koa';

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded; an embedded IPv4 tail becomes two groups). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => parseInt(group, 16));
}

/**
 * The rate-limit bucket of an address: IPv4 as is; IPv4-mapped IPv6 as its IPv4 address; other IPv6 addresses by
 * their /64 prefix, the block one subscriber gets, so rotating addresses inside it does not make new buckets.
 */
function addressBucket(address: string): string {
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address.replace(/%.*$/, ''));
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/**
 * The client's address for the per-address limits. With no trusted proxy, the peer of the socket. Behind
 * `trustedProxyHops` proxies, each of which appends the address it received the request from to
 * `X-Forwarded-For`, the entry that many places from the right: the entries left of it were written by the client
 * and prove nothing. If that entry is missing or is not an IP address, the peer's address is used, so a client
 * cannot make up buckets; the result is always a valid address (or /64 prefix) of bounded length.
 */
export function clientAddressOf(ctx: Context, trustedProxyHops: number): string {
  const peer = addressBucket(ctx.req.socket.remoteAddress ?? 'unknown');
  if (trustedProxyHops <= 0) return peer;
  const forwarded = ctx.get('X-Forwarded-For');
  if (forwarded === '') return peer;
  const entries = forwarded.split(',');
  const entry = entries[entries.length - trustedProxyHops]?.trim();
  return entry !== undefined && isIP(entry) !== 0 ? addressBucket(entry) : peer;
}
