import type { Context, Middleware } from 'koa';
import { HttpError } from '../HttpError.js';

/** The last middleware: whatever reaches it has no route (`404`, the Error body). */
export const notFound: Middleware = (ctx: Context) => {
  throw new HttpError('not_found', `No route ${ctx.method} ${ctx.path}.`);
};
