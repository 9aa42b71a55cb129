import { afterEach, describe, expect, it } from '@jest/globals';
import { DOCS_CONTENT_SECURITY_POLICY } from './middleware/apiReference.js';
import { startTestApi, type TestApi } from './testing/startTestApi.js';

describe('GET /docs: the API reference over HTTP', () => {
  let api: TestApi;
  afterEach(() => api.close());

  it('serves the page without a key, with a policy that allows only this origin', async () => {
    api = await startTestApi();
    const page = await api.request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': DOCS_CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
    });
    expect(DOCS_CONTENT_SECURITY_POLICY).toBe("default-src 'self'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'");
    expect(page.text).toContain('<meta charset="utf-8">');
    // Every file the page loads is local; no inline script (the policy would block it anyway).
    expect(page.text).not.toMatch(/https?:\/\//);
    expect(page.text).not.toMatch(/<script>/);
    for (const path of [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)) {
      const asset = await api.request('GET', path);
      expect({ path, status: asset.status }).toEqual({ path, status: 200 });
    }
  });

  it('serves the UI files from swagger-ui-dist in UTF-8, with the stylesheet images as files of their own', async () => {
    api = await startTestApi();
    const script = await api.request('GET', '/docs/swagger-ui-bundle.js');
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=86400');
    expect(script.text.length).toBeGreaterThan(1_000_000);
    const css = await api.request('GET', '/docs/swagger-ui.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.text).not.toContain('data:');
    const images = [...css.text.matchAll(/url\("(\/docs\/images\/[^"]+)"\)/g)].map((m) => m[1]!);
    expect(images.length).toBeGreaterThan(5);
    for (const path of new Set(images)) {
      const image = await api.request('GET', path);
      expect({ path, status: image.status, type: image.headers['content-type'] }).toEqual({
        path,
        status: 200,
        type: expect.stringMatching(/^image\//),
      });
    }
    expect((await api.request('GET', '/docs/index.html')).status).toBe(404);
    expect((await api.request('GET', '/docs/../package.json')).status).toBe(404);
  });

  it('serves the API\'s own OpenAPI document, whose server (where "Try it out" calls) is the public base URL', async () => {
    api = await startTestApi();
    const key = await api.issueKey('pro');
    const forDocs = (await api.request('GET', '/docs/openapi.json')).text;
    const served = (await api.authed(key, 'GET', '/v1/openapi.json')).text;
    expect(forDocs).toBe(served);
    expect((JSON.parse(forDocs) as { servers: unknown }).servers).toEqual([{ url: api.publicBaseUrl }]);
  });

  it('is not rate limited and spends nothing: 100 loads, then a failed authentication still has its whole bucket', async () => {
    api = await startTestApi({ failedAuthPerMinute: 2 });
    const statuses = await Promise.all(Array.from({ length: 100 }, () => api.request('GET', '/docs').then((r) => r.status)));
    expect(new Set(statuses)).toEqual(new Set([200]));
    const unauthorized = await api.request('GET', '/v1/pets');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['x-ratelimit-remaining']).toBe('1');
  });

  it('can be turned off: then /docs is an unknown route', async () => {
    api = await startTestApi({ apiReference: false });
    const off = await api.request('GET', '/docs');
    expect(off.status).toBe(404);
    expect(off.json).toEqual({ code: 'not_found', status: 404, message: 'No route GET /docs.' });
    expect((await api.request('GET', '/docs/swagger-ui-bundle.js')).status).toBe(404);
  });
});
