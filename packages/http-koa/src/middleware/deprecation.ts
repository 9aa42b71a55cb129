import type { Context } from 'koa';
import { HttpError } from '../HttpError.js';
import type { Deprecation, Operation } from '../operations/Operation.js';

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

/** Throws `gone` once a deprecated operation's sunset has come (`nowMs`: the service's clock). */
export function refuseAfterSunset(operation: Operation, deprecated: Deprecation): (nowMs: number) => void {
  const sunsetMs = deprecated.sunset.getTime();
  const message = `${operation.method} ${operation.path} was removed on ${deprecated.sunset.toISOString().slice(0, 10)}; ${deprecated.advice}`;
  return (nowMs) => {
    if (nowMs >= sunsetMs) throw new HttpError('gone', message);
  };
}
