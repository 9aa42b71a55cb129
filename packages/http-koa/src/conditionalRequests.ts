import { hash } from 'node:crypto';
import type { Context } from 'koa';
import { JSON_CONTENT_TYPE } from './jsonContentType.js';

/**
 * A strong entity tag derived from the representation alone (its body and its `Link`), so every instance, before
 * and after a restart, gives the same content the same tag: 128 bits of SHA-256, base64url.
 */
export function entityTag(body: string, link = ''): string {
  return `"${hash('sha256', `${body}\n${link}`, 'base64url').slice(0, 22)}"`;
}

// entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E / obs-text (RFC 9110, section 8.8.3)
const ENTITY_TAG = /^\s*(?:W\/)?("[\x21\x23-\x7E\x80-\xFF]*")\s*(?:,|$)/;

/**
 * RFC 9110 If-None-Match against the current tag: `*` matches any current representation; otherwise a
 * comma-separated list of entity tags compared weakly (`W/"x"` matches `"x"`). A malformed list matches nothing.
 */
export function ifNoneMatchMatches(header: string, currentTag: string): boolean {
  if (header.trim() === '*') return true;
  let rest = header;
  while (rest.trim() !== '') {
    const match = ENTITY_TAG.exec(rest);
    if (!match) return false;
    if (match[1] === currentTag) return true;
    rest = rest.slice(match[0].length);
  }
  return false;
}

/**
 * Sets `ETag` and the JSON body, or answers `304 Not Modified` without a body when the request's If-None-Match
 * matches. The headers already set (rate limits, Link, deprecation) stay on the 304. `tag` may be passed when it is
 * already known (a rendered listing page).
 */
export function sendWithEntityTag(ctx: Context, body: string, tag = entityTag(body, ctx.response.get('Link'))): void {
  ctx.set('ETag', tag);
  const ifNoneMatch = ctx.get('If-None-Match');
  if (ifNoneMatch !== '' && ifNoneMatchMatches(ifNoneMatch, tag)) {
    ctx.status = 304;
    return;
  }
  ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = body;
}
