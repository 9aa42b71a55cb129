// The floor: bare Koa 3 + @koa/router answering a fixed 20-pet array with the three rate-limit headers.
// No auth, no database. Everything the real server does is measured against this, in the same run.
import Router from '@koa/router';
import Koa from 'koa';

const pets = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `pet ${i + 1}`, categoryId: 1 + (i % 5), status: 'available' }));
const app = new Koa();
const router = new Router();
router.get('/v1/pets', (ctx) => {
  ctx.set('X-RateLimit-Limit', '1000');
  ctx.set('X-RateLimit-Remaining', '999');
  ctx.set('X-RateLimit-Reset', String(Math.ceil(Date.now() / 60_000) * 60));
  ctx.body = pets;
});
app.use(router.routes());
const server = app.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
  process.stderr.write(`ready ${(server.address() as { port: number }).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
