import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Router from '@koa/router';
import Koa from 'koa';
import { routesLookedUpOnce } from './routeTable.js';

// The same expectations against the router's own middleware: the table must not change what a request gets.
describe.each([
  ['routesLookedUpOnce(router)', routesLookedUpOnce],
  ['router.routes()', (router: Router) => router.routes() as Koa.Middleware],
])('%s', (_name, mount) => {
  let base: string;
  let close: () => void;

  beforeAll(async () => {
    const router = new Router({ prefix: '/v1', strict: true, sensitive: true });
    const describe = (ctx: Koa.Context) => ({
      routerPath: ctx['routerPath'] as unknown,
      routerName: ctx['routerName'] as unknown,
      matchedRoute: ctx['_matchedRoute'] as unknown,
      params: ctx['params'] as unknown,
    });
    router.get('list', '/pets', (ctx) => void (ctx.body = { via: 'list', ...describe(ctx) }));
    router.post('create', '/pets', (ctx, next) => {
      ctx.set('X-Created', 'yes');
      return next();
    });
    router.get('one', '/pets/:petId', (ctx) => void (ctx.body = { via: 'one', ...describe(ctx) }));
    router.get('/static/:rest', (ctx) => void (ctx.body = { via: 'param route', ...describe(ctx) }));
    const app = new Koa();
    app.use(mount(router));
    app.use((ctx) => {
      ctx.body = { via: 'next', routerPath: (ctx['routerPath'] as unknown) ?? null };
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  const get = async (path: string, method = 'GET') => {
    const response = await fetch(`${base}${path}`, { method });
    return {
      status: response.status,
      headers: response.headers,
      body: method === 'HEAD' ? null : ((await response.json()) as Record<string, unknown>),
    };
  };

  it('answers a route without parameters with what the router would have put on the context', async () => {
    expect((await get('/v1/pets')).body).toEqual({ via: 'list', routerPath: '/v1/pets', routerName: 'list', matchedRoute: '/v1/pets', params: {} });
  });

  it('answers HEAD with the GET route, as the router does', async () => {
    expect((await get('/v1/pets', 'HEAD')).status).toBe(200);
  });

  it('lets a route call next, as in the router', async () => {
    const created = await get('/v1/pets', 'POST');
    expect(created.headers.get('x-created')).toBe('yes');
    expect(created.body).toEqual({ via: 'next', routerPath: '/v1/pets' });
  });

  it('leaves routes with parameters to the router', async () => {
    expect((await get('/v1/pets/7')).body).toEqual({
      via: 'one',
      routerPath: '/v1/pets/:petId',
      routerName: 'one',
      matchedRoute: '/v1/pets/:petId',
      params: { petId: '7' },
    });
  });

  it('matches exactly, like a strict, case-sensitive router: anything else goes on', async () => {
    for (const path of ['/v1/pets/', '/v1/Pets', '/v1/pets%2F', '/v1//pets', '/v1']) {
      expect((await get(path)).body).toEqual({ via: 'next', routerPath: null });
    }
    expect((await get('/v1/pets', 'PUT')).body).toEqual({ via: 'next', routerPath: null });
  });
});

describe('routesLookedUpOnce on a router where equality is not matching', () => {
  it.each([
    ['not strict', new Router({ sensitive: true })],
    ['not case-sensitive', new Router({ strict: true })],
    ['with router.use()', new Router({ strict: true, sensitive: true }).use((_ctx, next) => next())],
  ])('uses the router as it is (%s)', (_name, router) => {
    expect((routesLookedUpOnce(router) as { router?: unknown }).router).toBe(router);
  });
});
