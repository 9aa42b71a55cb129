/**
 * The shortest admin token accepted: 32 characters (`openssl rand -hex 32` gives 64). Also exported as
 * `@petstore/http-koa/admin-token`, which loads nothing else: a configuration check can name it without loading Koa.
 */
export const MIN_ADMIN_TOKEN_LENGTH = 32;
