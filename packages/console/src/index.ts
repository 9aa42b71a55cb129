import { fileURLToPath } from 'node:url';

/**
 * The directory of the built console: `index.html` and `assets/` (scripts and styles named by their content's hash,
 * each with its `.br` and `.gz`). `@petstore/http-koa`'s `createAdminApp({ consoleDirectory })` serves it.
 */
export const CONSOLE_DIRECTORY: string = fileURLToPath(new URL('./web/', import.meta.url));
