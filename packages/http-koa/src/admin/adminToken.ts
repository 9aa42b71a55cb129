import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { HttpError } from '../HttpError.js';
import { bearerSecret } from '../middleware/bearerSecret.js';
import { headerCount } from '../middleware/headerCount.js';
import { MIN_ADMIN_TOKEN_LENGTH } from './adminTokenLength.js';

const REALM = 'Bearer realm="petstore-admin"';
const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Checks `Authorization: Bearer <token>` against the admin token. Both sides are hashed first, so the comparison
 * (`timingSafeEqual`) takes the same time whatever the length or the first differing character of a guess.
 */
export function adminTokenCheck(token: string): (ctx: Context) => void {
  if (token.length < MIN_ADMIN_TOKEN_LENGTH) throw new Error(`The admin token must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters long.`);
  const expected = digest(token);
  return (ctx) => {
    if (headerCount(ctx.req.rawHeaders, 'authorization') > 1) throw new HttpError('bad_request', 'Send one Authorization header, not several.');
    const given = bearerSecret(ctx.get('Authorization'));
    if (given === undefined) {
      throw new HttpError('unauthorized', 'The admin token is required: send it as "Authorization: Bearer <ADMIN_TOKEN>".', {
        'WWW-Authenticate': REALM,
      });
    }
    if (given === null || !timingSafeEqual(digest(given), expected)) {
      throw new HttpError('unauthorized', 'The admin token is invalid.', { 'WWW-Authenticate': `${REALM}, error="invalid_token"` });
    }
  };
}
