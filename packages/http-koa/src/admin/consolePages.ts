import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import type { Context, Middleware } from 'koa';
import { answerMethods } from '../routing/operationRequest.js';

/** Where the console is served on the admin listener. */
const CONSOLE_PATH = '/console';

/**
 * The console's own headers: scripts, styles and requests from the listener itself only (no inline script or style),
 * never framed, no `Referer` sent anywhere, no content sniffing.
 */
const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml; charset=utf-8',
  '.png': 'image/png',
};

interface ConsoleFile {
  type: string;
  cacheControl: string;
  /** The file as built, then compressed by the build when it was worth it (`br`, `gzip`). */
  encodings: ReadonlyMap<'br' | 'gzip' | 'identity', Buffer>;
}

/** The page is asked for again at every load (`no-cache`); the assets' names change with their content. */
const PAGE_CACHE = 'no-cache';
const ASSET_CACHE = 'public, max-age=31536000, immutable';

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/** Every file of the built console, read once: the page at `index.html`, the assets under `assets/`. */
function readConsole(directory: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  for (const name of filesUnder(directory)) {
    const type = CONTENT_TYPES[extname(name)];
    if (type === undefined) continue; // .br and .gz are read with their file
    const path = join(directory, name);
    const encodings = new Map<'br' | 'gzip' | 'identity', Buffer>([['identity', readFileSync(path)]]);
    if (existsSync(`${path}.br`)) encodings.set('br', readFileSync(`${path}.br`));
    if (existsSync(`${path}.gz`)) encodings.set('gzip', readFileSync(`${path}.gz`));
    files.set(name, { type, cacheControl: name === 'index.html' ? PAGE_CACHE : ASSET_CACHE, encodings });
  }
  if (!files.has('index.html')) throw new Error(`No console in ${directory}: index.html is missing (run pnpm build).`);
  return files;
}

function send(ctx: Context, file: ConsoleFile): void {
  ctx.set(CONSOLE_SECURITY_HEADERS);
  ctx.set('Cache-Control', file.cacheControl);
  ctx.vary('Accept-Encoding');
  const encoding = ctx.acceptsEncodings([...file.encodings.keys()]) || 'identity';
  const body = file.encodings.get(encoding as 'br') ?? file.encodings.get('identity')!;
  if (body !== file.encodings.get('identity')) ctx.set('Content-Encoding', encoding);
  ctx.type = file.type;
  ctx.body = body;
}

/**
 * Serves the operator console built in `directory` at `/console` (the page) and `/console/assets/...` (scripts and
 * styles, named by their content's hash, cached for a year); anything else goes on. The page holds no secret: every
 * call it makes goes to the admin API with the token the operator types in.
 */
export function consolePages(directory: string): Middleware {
  const files = readConsole(directory);
  return (ctx, next) => {
    const path = ctx.path;
    if (path !== CONSOLE_PATH && !path.startsWith(`${CONSOLE_PATH}/`)) return next();
    const name = path === CONSOLE_PATH || path === `${CONSOLE_PATH}/` ? 'index.html' : path.slice(CONSOLE_PATH.length + 1);
    const file = name === 'index.html' || name.startsWith('assets/') ? files.get(name) : undefined;
    if (file === undefined) return next();
    ctx.state['route'] = name === 'index.html' ? CONSOLE_PATH : `${CONSOLE_PATH}/assets/{file}`;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return answerMethods(ctx, 'GET, HEAD');
    send(ctx, file);
    return undefined;
  };
}
