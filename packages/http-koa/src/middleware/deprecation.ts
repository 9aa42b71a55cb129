import type { Middleware } from 'koa';

export interface DeprecationNotice {
  /** When the operation was deprecated (RFC 9745 `Deprecation: @<unix seconds>`). */
  since: Date;
  /** When it is removed (RFC 8594 `Sunset`). */
  sunset: Date;
  /** Absolute URL of the replacement, sent as `Link: <...>; rel="successor-version"`. */
  successor: string;
}

/** Marks every response of a deprecated operation, errors included. */
export function deprecation(notice: DeprecationNotice): Middleware {
  const deprecationValue = `@${Math.floor(notice.since.getTime() / 1000)}`;
  const sunsetValue = notice.sunset.toUTCString();
  const link = `<${notice.successor}>; rel="successor-version"`;
  return async function markDeprecated(ctx, next) {
    ctx.set('Deprecation', deprecationValue);
    ctx.set('Sunset', sunsetValue);
    ctx.append('Link', link);
    await next();
  };
}
