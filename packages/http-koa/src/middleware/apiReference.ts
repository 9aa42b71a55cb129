import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Middleware } from 'koa';
import { JSON_CONTENT_TYPE } from '../jsonContentType.js';

/** Only the service's own origin: no CDN, no font service, no remote validator, no inline script or style element. */
export const DOCS_CONTENT_SECURITY_POLICY = "default-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'";

const PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Animal Adoption Store API reference</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css">
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js" charset="utf-8"></script>
    <script src="/docs/init.js" charset="utf-8"></script>
  </body>
</html>
`;

// Swagger UI without its standalone top bar (a URL box that loads other documents), without the remote validator
// badge (validator.swagger.io), with vendor extensions shown (the sunset date of getPet).
const INIT = `window.ui = SwaggerUIBundle({
  url: '/docs/openapi.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  validatorUrl: null,
  deepLinking: true,
  showExtensions: true,
  displayRequestDuration: true,
  persistAuthorization: false,
  supportedSubmitMethods: ['get', 'post', 'head'],
});
`;

interface Asset {
  type: string;
  body: string | Buffer;
  /** Package files can be cached by the browser; the page and the document follow the running service. */
  cacheable: boolean;
}

const EXTENSIONS: Record<string, string> = { 'image/svg+xml': 'svg', 'image/png': 'png', 'image/jpeg': 'jpg' };

/**
 * The stylesheet's `url(data:...)` images become files of their own under `/docs/images/`, so the policy needs no
 * `img-src data:` exception. Both forms the stylesheet uses are read: `"data:<type>;charset=utf-8,<url-encoded>"`
 * (a CSS string, with backslash escapes) and `data:<type>;base64,<base64>`.
 */
function extractDataImages(css: string): { css: string; images: Map<string, Asset> } {
  const images = new Map<string, Asset>();
  const inlineImage = /url\((?:"data:([a-z+/]+);charset=utf-8,((?:\\.|[^"\\])*)"|data:([a-z+/]+);base64,([A-Za-z0-9+/=]+))\)/g;
  const rewritten = css.replace(inlineImage, (whole, textType?: string, text?: string, base64Type?: string, base64?: string) => {
    const type = (textType ?? base64Type)!;
    const extension = EXTENSIONS[type];
    if (!extension) return whole;
    const body = text !== undefined ? Buffer.from(decodeURIComponent(text.replace(/\\(.)/g, '$1')), 'utf8') : Buffer.from(base64!, 'base64');
    const path = `/docs/images/${createHash('sha256').update(body).digest('hex').slice(0, 16)}.${extension}`;
    images.set(path, { type: type === 'image/svg+xml' ? 'image/svg+xml; charset=utf-8' : type, body, cacheable: true });
    return `url("${path}")`;
  });
  return { css: rewritten, images };
}

/** Files read from the installed swagger-ui-dist package once, on the first request that needs them. */
function packageAssets(): Record<string, Asset> {
  const root = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const file = (name: string) => readFileSync(join(root, name));
  const { css, images } = extractDataImages(file('swagger-ui.css').toString('utf8'));
  return {
    ...Object.fromEntries(images),
    '/docs/swagger-ui.css': { type: 'text/css; charset=utf-8', body: css, cacheable: true },
    '/docs/swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', body: file('swagger-ui-bundle.js'), cacheable: true },
    '/docs/favicon-32x32.png': { type: 'image/png', body: file('favicon-32x32.png'), cacheable: true },
  };
}

/**
 * `GET /docs`: the interactive API reference (Swagger UI from the swagger-ui-dist package), served entirely from
 * this process: the page, the UI's files, and the API's OpenAPI document (whose server, the public base URL, is
 * where "Try it out" sends its calls). No key needed, not rate limited; everything else goes on to the next
 * middleware. The document is written, and the UI's files read, at the first request for them.
 */
export function apiReference(openApiDocument: () => object): Middleware {
  let documentText: string | undefined;
  const own: Record<string, Asset> = {
    '/docs': { type: 'text/html; charset=utf-8', body: PAGE, cacheable: false },
    '/docs/init.js': { type: 'text/javascript; charset=utf-8', body: INIT, cacheable: false },
    '/docs/openapi.json': {
      type: JSON_CONTENT_TYPE,
      get body() {
        return (documentText ??= JSON.stringify(openApiDocument()));
      },
      cacheable: false,
    },
  };
  let assets: Record<string, Asset> | undefined;

  return function docs(ctx, next) {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !(ctx.path === '/docs' || ctx.path.startsWith('/docs/'))) return next();
    const asset = own[ctx.path] ?? (assets ??= packageAssets())[ctx.path];
    if (!asset) return next();
    ctx.set('Content-Security-Policy', DOCS_CONTENT_SECURITY_POLICY);
    ctx.set('Cache-Control', asset.cacheable ? 'public, max-age=86400' : 'no-cache');
    ctx.set('Content-Type', asset.type);
    ctx.body = asset.body;
    return Promise.resolve();
  };
}
