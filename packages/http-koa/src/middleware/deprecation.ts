import type { Context } from 'koa';
import type { Deprecation } from '../operations/Operation.js';

/** Marks an answer of a deprecated operation (errors included): RFC 9745 `Deprecation`, RFC 8594 `Sunset`, the successor. */
export function deprecationHeaders(deprecated: Deprecation, publicBaseUrl: string): (ctx: Context) => void {
  const since = `@${Math.floor(deprecated.since.getTime() / 1000)}`;
  const sunset = deprecated.sunset.toUTCString();
  const link = `<${publicBaseUrl}${deprecated.successor}>; rel="successor-version"`;
  return (ctx) => {
    ctx.set('Deprecation', since);
    ctx.set('Sunset', sunset);
    ctx.append('Link', link);
  };
}
